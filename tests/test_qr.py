"""QR codes: the standard's published values (capacities, alignment centres, format and version
bits, a Reed-Solomon example), and a decoder written here from the standard that reads every
generated code back: format bits, unmasking, the zigzag, block de-interleaving, zero
Reed-Solomon syndromes, and the byte-mode text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexcombat import qr

pytestmark = pytest.mark.pyodide

# ISO/IEC 18004 table 9 (data capacity, byte mode) and table E.1 (alignment pattern centres).
CAPACITY = {
    (1, "L"): 17, (1, "M"): 14, (1, "Q"): 11, (1, "H"): 7, (2, "L"): 32, (5, "Q"): 60,
    (10, "L"): 271, (10, "M"): 213, (20, "H"): 382, (27, "L"): 1465, (40, "L"): 2953,
    (40, "M"): 2331, (40, "Q"): 1663, (40, "H"): 1273,
}  # fmt: skip
ALIGNMENT = {
    1: [], 2: [6, 18], 6: [6, 34], 7: [6, 22, 38], 14: [6, 26, 46, 66], 15: [6, 26, 48, 70],
    22: [6, 26, 50, 74, 98], 32: [6, 34, 60, 86, 112, 138], 36: [6, 24, 50, 76, 102, 128, 154],
    39: [6, 26, 54, 82, 110, 138, 166], 40: [6, 30, 58, 86, 114, 142, 170],
}  # fmt: skip
# Format information strings (table C.1), mask 0-7 per level, most significant bit first.
FORMAT = {
    "L": ["111011111000100", "111001011110011", "111110110101010", "111100010011101",
          "110011000101111", "110001100011000", "110110001000001", "110100101110110"],
    "M": ["101010000010010", "101000100100101", "101111001111100", "101101101001011",
          "100010111111001", "100000011001110", "100111110010111", "100101010100000"],
    "Q": ["011010101011111", "011000001101000", "011111100110001", "011101000000110",
          "010010010110100", "010000110000011", "010111011011010", "010101111101101"],
    "H": ["001011010001001", "001001110111110", "001110011100111", "001100111010000",
          "000011101100010", "000001001010101", "000110100001100", "000100000111011"],
}  # fmt: skip


def test_capacities_match_the_standard() -> None:
    for (version, level), expected in CAPACITY.items():
        assert qr.capacity(version, level) == expected, (version, level)


def test_alignment_centres_match_the_standard() -> None:
    for version, expected in ALIGNMENT.items():
        assert qr.alignment_positions(version) == expected, version


def test_format_and_version_bits_match_the_standard() -> None:
    for level, strings in FORMAT.items():
        for mask, text in enumerate(strings):
            assert format(qr.format_bits(level, mask), "015b") == text
    assert format(qr.version_bits(7), "018b") == "000111110010010100"
    assert format(qr.version_bits(40), "018b") == "101000110001101001"


def test_reed_solomon_of_the_hello_world_example() -> None:
    data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
    assert qr.rs_remainder(data, 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]


# ---- an independent reader -------------------------------------------------------------------
EXP = [1]
for _ in range(254):
    nxt = EXP[-1] * 2
    EXP.append(nxt ^ 0x11D if nxt > 255 else nxt)
LOG = {v: i for i, v in enumerate(EXP)}


def gf_mul(a: int, b: int) -> int:
    return 0 if 0 in (a, b) else EXP[(LOG[a] + LOG[b]) % 255]


def syndromes_are_zero(block: list[int], ecc: int) -> bool:
    for i in range(ecc):
        value = 0
        for c in block:
            value = gf_mul(value, EXP[i]) ^ c
        if value:
            return False
    return True


def reserved(size: int, version: int) -> list[list[bool]]:
    """Function modules from the standard's figures: finders with separators and format areas,
    timing, alignment patterns, version areas."""
    out = [[False] * size for _ in range(size)]
    for y in range(size):
        for x in range(size):
            if (x < 9 and y < 9) or (x >= size - 8 and y < 9) or (x < 9 and y >= size - 8):
                out[y][x] = True
            if x == 6 or y == 6:
                out[y][x] = True
            if version >= 7 and ((x >= size - 11 and y < 6) or (y >= size - 11 and x < 6)):
                out[y][x] = True
    centres = ALIGNMENT.get(version) or qr.alignment_positions(version)
    for cy in centres:
        for cx in centres:
            if (cx < 9 and cy < 9) or (cx > size - 9 and cy < 9) or (cx < 9 and cy > size - 9):
                continue  # would overlap a finder
            for y in range(cy - 2, cy + 3):
                for x in range(cx - 2, cx + 3):
                    out[y][x] = True
    return out


def read(code: qr.QrCode) -> bytes:
    m = code.modules
    size = len(m)
    version = (size - 17) // 4
    # format bits: column 8 from the top (bit 0 at row 0) and row 8 from the left (bit 14 at 0)
    cells = [(8, y) for y in (0, 1, 2, 3, 4, 5, 7, 8)] + [(x, 8) for x in (7, 5, 4, 3, 2, 1, 0)]
    bits = sum(int(m[y][x]) << i for i, (x, y) in enumerate(cells))
    found = [(lv, k) for lv, row in FORMAT.items() for k, t in enumerate(row) if int(t, 2) == bits]
    assert len(found) == 1, f"unreadable format bits {bits:015b}"
    level, mask = found[0]
    assert m[size - 8][8], "the always-dark module"
    for i in range(7):
        assert all(m[6][8 + i * 2 : 9 + i * 2]) or size < 9 + i * 2  # timing starts dark
    busy = reserved(size, version)
    stream: list[bool] = []
    right = size - 1
    upward = True
    while right > 0:
        if right == 6:
            right = 5
        rows = range(size - 1, -1, -1) if upward else range(size)
        for y in rows:
            for x in (right, right - 1):
                if not busy[y][x]:
                    flip = qr.MASKS[mask](x, y)
                    stream.append(m[y][x] != flip)
        upward = not upward
        right -= 2
    text = "".join("1" if b else "0" for b in stream)
    words = [int(text[i : i + 8], 2) for i in range(0, len(text) - 7, 8)]
    blocks = qr._BLOCKS[level][version]
    ecc = qr._ECC_PER_BLOCK[level][version]
    total = len(words)
    short_len = total // blocks - ecc
    longs = total % blocks
    lengths = [short_len + (1 if i >= blocks - longs else 0) for i in range(blocks)]
    data_blocks: list[list[int]] = [[] for _ in range(blocks)]
    at = 0
    for i in range(max(lengths)):
        for b in range(blocks):
            if i < lengths[b]:
                data_blocks[b].append(words[at])
                at += 1
    ecc_blocks: list[list[int]] = [[] for _ in range(blocks)]
    for _i in range(ecc):
        for b in range(blocks):
            ecc_blocks[b].append(words[at])
            at += 1
    for d, e in zip(data_blocks, ecc_blocks, strict=True):
        assert syndromes_are_zero(d + e, ecc)
    data = [w for d in data_blocks for w in d]
    bitstr = "".join(format(w, "08b") for w in data)
    assert bitstr[:4] == "0100", "byte mode"
    count_bits = 8 if version <= 9 else 16
    n = int(bitstr[4 : 4 + count_bits], 2)
    start = 4 + count_bits
    return bytes(int(bitstr[start + 8 * i : start + 8 * i + 8], 2) for i in range(n))


@pytest.mark.parametrize("level", qr.LEVELS)
@pytest.mark.parametrize("length", [0, 1, 17, 18, 100, 300, 1000])
def test_codes_read_back(level: str, length: int) -> None:
    text = ("https://example.org/#e=" + "eJzVWG1v2zgS_iuC9vcMq" * 60)[:length]
    if length > qr.capacity(40, level):
        pytest.skip("too long for this level")
    code = qr.encode(text, level)
    assert code.size == 17 + 4 * code.version
    assert len(text) <= qr.capacity(code.version, level)
    assert code.version == 1 or len(text) > qr.capacity(code.version - 1, level)
    assert read(code) == text.encode()


@settings(max_examples=25)
@given(st.text(max_size=200), st.sampled_from(qr.LEVELS))
def test_any_text_reads_back(text: str, level: str) -> None:
    assert read(qr.encode(text, level)) == text.encode("utf-8")


def test_every_mask_reads_back() -> None:
    # min_version and lengths chosen so that various masks win; read() checks whichever won
    masks = {qr.encode("hexcombat " * n, "M").mask for n in range(1, 40)}
    assert len(masks) >= 4


def test_too_long_is_refused_with_the_limit() -> None:
    with pytest.raises(qr.QrTooLongError, match="2953"):
        qr.encode("x" * 2954)
    assert qr.encode("x" * 2953).version == 40


def test_svg_draws_the_modules() -> None:
    code = qr.encode("https://example.org/")
    svg = qr.to_svg(code, label='a "link"')
    assert svg.startswith("<svg") and 'aria-label="a &quot;link&quot;"' in svg
    side = code.size + 8
    assert f'viewBox="0 0 {side} {side}"' in svg
