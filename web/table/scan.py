"""Reading a pairing code from a photo of the other device's QR code: the browser's
BarcodeDetector where it has one, else jsQR (vendored from npm, ``vendor/jsqr/``), whose
script is loaded only the first time a device scans: gzipped (web/build.py; the offline copy
keeps it, so every first visit downloads it), unpacked here and run as the page's script."""

from __future__ import annotations

import gzip
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

JSQR = "./vendor/jsqr/jsQR.js.gz"


class ScanError(ValueError):
    """No QR code could be read, in words for the player."""


async def read_code(file: Any) -> str:
    """The text of the QR code in an image file (a photo taken with the device's camera)."""
    bitmap = await js.createImageBitmap(file)
    found = await _with_detector(bitmap) if _has_detector() else await _with_jsqr(bitmap)
    if not found:
        raise ScanError("no QR code could be read in this picture: hold the camera closer")
    return found


def _has_detector() -> bool:
    return bool(getattr(js, "BarcodeDetector", None))


async def _with_detector(bitmap: Any) -> str:
    formats = await js.BarcodeDetector.getSupportedFormats()
    if "qr_code" not in list(formats):
        return await _with_jsqr(bitmap)
    options = to_js({"formats": ["qr_code"]}, dict_converter=js.Object.fromEntries)
    codes = await js.BarcodeDetector.new(options).detect(bitmap)
    return str(codes[0].rawValue) if codes.length else ""


async def _with_jsqr(bitmap: Any) -> str:
    await _load_jsqr()
    canvas = js.document.createElement("canvas")
    canvas.width, canvas.height = bitmap.width, bitmap.height
    context = canvas.getContext("2d")
    context.drawImage(bitmap, 0, 0)
    image = context.getImageData(0, 0, bitmap.width, bitmap.height)
    code = js.jsQR(image.data, image.width, image.height)
    return str(code.data) if code else ""


async def _load_jsqr() -> None:
    """Fetch jsQR once (through the offline copy), unpack it and run it: it sets ``jsQR``
    on the page (the policy allows eval, which PyScript and Pyodide need too)."""
    if getattr(js, "jsQR", None):
        return
    response = await js.fetch(JSQR)
    if not response.ok:
        raise ScanError("the QR code reader could not be loaded")
    packed = (await response.arrayBuffer()).to_bytes()
    js.eval(gzip.decompress(packed).decode("utf-8"))
