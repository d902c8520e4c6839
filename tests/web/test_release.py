"""The release zip (web/release.py): one folder named by the version, every file of the site
as it is, and the same bytes from the same site."""

from __future__ import annotations

import zipfile
from pathlib import Path

from web.release import write_site_zip, zip_name


def test_the_zip_holds_the_site_in_one_versioned_folder_and_is_reproducible(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    (site / "vendor").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html>", encoding="utf-8")
    (site / "vendor" / "engine.tar.bz2").write_bytes(b"BZh9\x00\x01")
    first = write_site_zip(site, tmp_path / "a", "1.2.3")
    second = write_site_zip(site, tmp_path / "b", "1.2.3")
    assert first.name == zip_name("1.2.3") == "hexcombat-site-1.2.3.zip"
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.namelist() == [
            "hexcombat-site-1.2.3/index.html",
            "hexcombat-site-1.2.3/vendor/engine.tar.bz2",
        ]
        assert archive.read("hexcombat-site-1.2.3/vendor/engine.tar.bz2") == b"BZh9\x00\x01"
