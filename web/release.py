"""The release zip: a built site folder as ``hexcombat-site-VERSION.zip``, ready to unpack on
any static host, in a subfolder of one or in a wiki's file area.

The zip holds one folder, ``hexcombat-site-VERSION/``, with the site's files as they are
(the host must serve them unchanged: no ``Content-Encoding`` on the ``.bz2`` archives).
Entries are sorted and dated alike, so one build always gives the same bytes.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

ZIP_DATE = (2000, 1, 1, 0, 0, 0)


def zip_name(version: str) -> str:
    """The release's file name: ``hexcombat-site-0.1.0.zip``."""
    return f"hexcombat-site-{version}.zip"


def write_site_zip(site: Path, dest_folder: Path, version: str) -> Path:
    """Zip every file under ``site`` into ``dest_folder``; returns the zip's path."""
    top = zip_name(version).removesuffix(".zip")
    dest = dest_folder / zip_name(version)
    dest_folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(p for p in site.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f"{top}/{path.relative_to(site).as_posix()}", ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return dest
