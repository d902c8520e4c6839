"""Reading a pairing code from a photo of the other device's QR code: the browser's
BarcodeDetector where it has one, else jsQR (vendored from npm, ``vendor/jsqr/``), whose
script is loaded only the first time a device scans."""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

JSQR = "./vendor/jsqr/jsQR.js"
LOAD_WAIT_S = 10.0


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
    """Add jsQR's script to the page once and wait until it has run."""
    if getattr(js, "jsQR", None):
        return
    if not js.document.getElementById("jsqr-script"):
        script = js.document.createElement("script")
        script.id = "jsqr-script"
        script.src = JSQR
        js.document.head.appendChild(script)
    waited = 0.0
    while not getattr(js, "jsQR", None):
        if waited > LOAD_WAIT_S:
            raise ScanError("the QR code reader could not be loaded")
        await asyncio.sleep(0.05)
        waited += 0.05
