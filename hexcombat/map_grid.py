"""Finding the hex grid printed on a map picture: orientation, hex size, offset, board size.

The page hands over the picture already drawn smaller (grey or RGBA bytes, at most about
1024 px on its long side) and the ``scale`` it drew it at; every length in the proposal is
in the full picture's pixels.

How: a hex grid's lines run in three directions. Projected onto the picture's axes they
give two periodic profiles: with flat-topped hexes of size ``s`` (centre to corner) the
horizontal edges repeat every ``√3·s/2`` down the picture and the columns every ``1.5·s``
across it; pointed-topped hexes swap the two. The profiles are summed in narrow bands and
the bands shifted against each other to undo a slight tilt of the print (the tilt that
makes the profiles sharpest). The autocorrelation of each profile's steps scores every
hex size and both orientations at once; the best is refined on the profiles' Fourier
coefficients, whose phases say where to look for each line; the lines found one by one,
fitted with a straight line, give the size and the offset; and a look at the lattice's
points tells a hex's centre from the middle of its edge. Pointed-topped grids are
described after a quarter turn clockwise, which makes their rows the board's flat-topped
columns.
"""

from __future__ import annotations

import cmath
import itertools
import math
import operator
import sys
from array import array
from dataclasses import dataclass
from typing import Literal

from hexcombat.rounding import round_half_up

__all__ = ["GridProposal", "NoGrid", "Orientation", "Picture", "find_grid"]

Orientation = Literal["flat", "pointed"]

_SQRT3 = math.sqrt(3.0)
_BAND = 32
"""Width in pixels of the bands the profiles are summed in (a tilted line stays sharp in one)."""
_LANE = next(code for code in "IL" if array(code).itemsize == 4)
_MOST_TILT = 2.5
"""The most a print is looked for turned, in degrees."""
_EDGES_APART = 0.15
"""How much darker (or lighter) than the centres the middles of the hexes' edges must look."""
_EDGES_SURE = 0.4
"""How far apart edges and centres look when the proposal's confidence is full."""
_NEAR_BEST = 0.8
"""How close to the best score a smaller candidate hex size must come to be preferred."""
_SMALLEST = 4.0
"""The smallest hex size looked for, in the reduced picture's pixels."""
_WHOLE = 0.2
"""How much of a hex's size may be cut off at the picture's edge for it to count on the board."""
_FOUND = 0.08
"""How well both profiles must repeat (see ``_repeats``) for a grid to be proposed."""
_SURE = 0.4
"""How well both profiles repeat when the proposal's confidence is full."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture as one byte of grey per pixel, rows top to bottom."""

    width: int
    height: int
    grey: bytes

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a picture needs at least one pixel, got {self.width}x{self.height}")
        if len(self.grey) != self.width * self.height:
            raise ValueError(
                f"{self.width}x{self.height} grey pixels need {self.width * self.height} bytes,"
                f" got {len(self.grey)}"
            )

    @classmethod
    def from_rgba(cls, width: int, height: int, rgba: bytes) -> Picture:
        """The grey ``(R + 2G + B) / 4`` of an RGBA buffer (a canvas's ``getImageData``)."""
        n = width * height
        if len(rgba) != 4 * n:
            raise ValueError(f"{width}x{height} RGBA pixels need {4 * n} bytes, got {len(rgba)}")
        total = 0
        for channel, weight in ((0, 1), (1, 2), (2, 1)):
            lanes = bytearray(2 * n)
            lanes[0::2] = rgba[channel::4]
            total += weight * int.from_bytes(lanes, "little")
        # each 16-bit lane holds at most 1020; a shift by two leaves each lane's quarter in
        # its low byte (the bits shifted out land in the next lane's high byte, dropped)
        grey = (total >> 2).to_bytes(2 * n, "little")[0::2]
        return cls(width, height, bytes(grey))


@dataclass(frozen=True, slots=True)
class GridProposal:
    """The grid found, in the full picture's pixels.

    ``offset``: the centre of the board's hex in column 0, row 0 (its top-left whole hex),
    measured in the picture turned a quarter clockwise when the hexes are pointed-topped.
    ``columns`` x ``rows``: the whole hexes the picture holds (odd columns half a hex
    lower). ``tilt``: degrees the print is turned clockwise (the offset is exact at the
    picture's middle). ``confidence``: from 0 to 1.
    """

    orientation: Orientation
    hex_size: float
    offset: tuple[float, float]
    columns: int
    rows: int
    tilt: float
    confidence: float


@dataclass(frozen=True, slots=True)
class NoGrid:
    """No hex grid could be seen in the picture, and why."""

    reason: str


def find_grid(picture: Picture, scale: float = 1.0) -> GridProposal | NoGrid:
    """Propose the hex grid of ``picture``, drawn at ``scale`` of the original's size."""
    if not scale > 0:
        raise ValueError(f"scale must be > 0, got {scale}")
    if min(picture.width, picture.height) < 8 * _SMALLEST:
        return NoGrid(f"the picture ({picture.width}x{picture.height} px) is too small")
    bands = _Bands(picture)
    tilt = _sharpest_tilt(bands)
    across = bands.profile(tilt, down=False)
    down = bands.profile(tilt, down=True)
    steps_across, steps_down = _windowed(_steps(across)), _windowed(_steps(down))
    best = _best_candidate(steps_across, steps_down)
    if best is None:
        return NoGrid("no repeating lines in the picture")
    orientation, size, strength = best
    if strength < _FOUND:
        return NoGrid("no hex grid lines stand out in the picture")
    size = _refined_size(orientation, size, steps_across, steps_down)
    grid = _Grid(picture, orientation, size, tilt, (across, steps_across), (down, steps_down))
    if not grid.lines_found:
        return NoGrid("the lines of a hex grid could not be followed across the picture")
    if grid.edges_apart < _EDGES_APART:
        return NoGrid("the hexes' edges look no different from their centres")
    repeats = min(1.0, (strength - _FOUND) / (_SURE - _FOUND))
    return grid.proposal(scale, repeats * min(1.0, grid.edges_apart / _EDGES_SURE))


def _lanes(value: int, count: int) -> list[int]:
    """The ``count`` unsigned 32-bit lanes of a big integer, lowest first."""
    mask = (1 << (32 * count)) - 1
    lanes = array(_LANE)
    lanes.frombytes((value & mask).to_bytes(4 * count, "little"))
    if sys.byteorder == "big":
        lanes.byteswap()
    return lanes.tolist()


def _widened(data: bytes) -> int:
    """The bytes as one big integer of 32-bit lanes, the first byte lowest: adding two adds
    them byte by byte, all at C speed."""
    wide = bytearray(4 * len(data))
    wide[0::4] = data
    return int.from_bytes(wide, "little")


class _Bands:
    """A picture's grey summed in bands: along each row within vertical bands ``down[k]``
    (profiles down the picture) and along each column within horizontal bands
    ``across[k]`` (profiles across it), each kept as a big integer of 32-bit lanes."""

    def __init__(self, picture: Picture) -> None:
        w, h, grey = picture.width, picture.height, picture.grey
        self.width, self.height = w, h
        self.down = [
            sum(_widened(grey[x::w]) for x in range(x0, min(x0 + _BAND, w)))
            for x0 in range(0, w, _BAND)
        ]
        self.across = [
            sum(_widened(grey[y * w : (y + 1) * w]) for y in range(y0, min(y0 + _BAND, h)))
            for y0 in range(0, h, _BAND)
        ]

    def shifts(self, slope: float, *, down: bool) -> list[int]:
        """Each band's shift along its profile for lines tilted by ``slope`` (clockwise)."""
        bands, extent = (self.down, self.width) if down else (self.across, self.height)
        sign = 1.0 if down else -1.0
        middle = extent / 2.0
        return [
            round_half_up(sign * (k * _BAND + _BAND / 2.0 - middle) * slope)
            for k in range(len(bands))
        ]

    def summed(self, slope: float, *, down: bool) -> list[int]:
        """The bands' profiles added with each shifted to undo the tilt ``slope``: a line so
        tilted adds up in one place (lanes a band cannot reach are left short)."""
        bands, length = (self.down, self.height) if down else (self.across, self.width)
        total = 0
        for band, d in zip(bands, self.shifts(slope, down=down), strict=True):
            total += band >> (32 * d) if d >= 0 else band << (32 * -d)
        return _lanes(total, length)

    def profile(self, slope: float, *, down: bool) -> list[float]:
        """``summed``, each place scaled up for the bands that could not reach it, less the
        mean."""
        length = self.height if down else self.width
        shifts = self.shifts(slope, down=down)
        reach = [0] * length
        for d in shifts:
            lo, hi = max(0, -d), min(length, length - d)
            reach[lo:hi] = [n + 1 for n in reach[lo:hi]]
        n = len(shifts)
        values = [
            v * n / max(1, r) for v, r in zip(self.summed(slope, down=down), reach, strict=True)
        ]
        mean = sum(values) / length
        return [v - mean for v in values]


def _sharpness(profile: list[int], margin: int) -> int:
    """Sum of squared steps away from the ends: largest when the lines fall on each other."""
    inner = profile[margin : len(profile) - margin]
    steps = list(map(operator.sub, inner[1:], inner[:-1]))
    return sum(map(operator.mul, steps, steps))


def _sharpest_tilt(bands: _Bands) -> float:
    """The slope (tan of the clockwise tilt) that makes both profiles sharpest."""
    widest = math.tan(math.radians(_MOST_TILT + 0.5))
    margin_down = math.ceil(widest * bands.width / 2.0) + 1
    margin_across = math.ceil(widest * bands.height / 2.0) + 1
    base_down = _sharpness(bands.summed(0.0, down=True), margin_down) or 1
    base_across = _sharpness(bands.summed(0.0, down=False), margin_across) or 1

    def score(degrees: float) -> float:
        t = math.tan(math.radians(degrees))
        down = _sharpness(bands.summed(t, down=True), margin_down) / base_down
        across = _sharpness(bands.summed(t, down=False), margin_across) / base_across
        return down + across

    best = 0.0
    for step, reach in ((0.5, _MOST_TILT), (0.125, 0.375), (0.03, 0.06)):
        centre = best
        n = round_half_up(reach / step)
        best = max((centre + i * step for i in range(-n, n + 1)), key=lambda a: (score(a), -abs(a)))
    return math.tan(math.radians(best))


def _steps(profile: list[float]) -> list[float]:
    """The profile's steps from each pixel to the next: the lines' edges without the slow
    changes of light and terrain across the picture."""
    return [b - a for a, b in itertools.pairwise(profile)]


def _windowed(profile: list[float]) -> list[float]:
    """The profile under a Hann window (its ends fade out)."""
    n = len(profile)
    return [v * (0.5 - 0.5 * math.cos(2.0 * math.pi * i / (n - 1))) for i, v in enumerate(profile)]


def _periods(orientation: Orientation, size: float) -> tuple[float, float]:
    """The profiles' periods (across, down) for hexes of ``size`` in ``orientation``."""
    if orientation == "flat":
        return 1.5 * size, _SQRT3 / 2.0 * size
    return _SQRT3 / 2.0 * size, 1.5 * size


def _autocorrelation(windowed: list[float], longest: int) -> list[float]:
    """The windowed profile's autocorrelation up to lag ``longest``, 1 at lag 0."""
    zero = sum(map(operator.mul, windowed, windowed)) or 1.0
    return [
        sum(map(operator.mul, windowed, windowed[lag:])) / zero
        for lag in range(min(longest, len(windowed) - 1) + 1)
    ]


def _at_lag(acf: list[float], lag: float) -> float:
    """The autocorrelation at a fractional lag (linear between the two nearest)."""
    i = int(lag)
    if i + 1 >= len(acf):
        return 0.0
    t = lag - i
    return acf[i] * (1.0 - t) + acf[i + 1] * t


def _repeats(acf: list[float], period: float) -> float:
    """How well a profile repeats every ``period`` and not already every half or third of it
    (where a candidate two or three times too long meets the true period)."""
    return _at_lag(acf, period) - max(_at_lag(acf, period / 2.0), _at_lag(acf, period / 3.0))


def _best_candidate(
    across: list[float], down: list[float]
) -> tuple[Orientation, float, float] | None:
    """The orientation and hex size whose two periods both repeat best, and how well (the
    weaker axis's score, from -1 to 2).

    Of the candidates within ``_NEAR_BEST`` of the best score the smallest wins: a grid
    repeats at every multiple of its periods too."""
    acf_across = _autocorrelation(across, math.ceil(len(across) / 2.5) + 2)
    acf_down = _autocorrelation(down, math.ceil(len(down) / 2.5) + 2)
    scored: list[tuple[float, float, Orientation, float]] = []
    for orientation in ("flat", "pointed"):
        size = _SMALLEST
        while True:
            p_across, p_down = _periods(orientation, size)
            if p_across > len(across) / 2.5 or p_down > len(down) / 2.5:
                break
            a, d = _repeats(acf_across, p_across), _repeats(acf_down, p_down)
            scored.append((size, a + d, orientation, min(a, d)))
            size *= 1.005
    if not scored:
        return None
    best = max(score for _, score, _, _ in scored)
    size, _, orientation, weaker = min(c for c in scored if c[1] >= _NEAR_BEST * best)
    return orientation, size, weaker


def _coefficient(windowed: list[float], period: float) -> complex:
    """The windowed profile's Fourier coefficient at ``period``."""
    turn = cmath.exp(-2j * math.pi / period)
    z = complex(1.0)
    total = complex(0.0)
    for v in windowed:
        total += v * z
        z *= turn
    return total


def _refined_size(
    orientation: Orientation, size: float, across: list[float], down: list[float]
) -> float:
    """The size near ``size`` where both profiles' coefficients are strongest together."""

    def strength(s: float) -> float:
        p_across, p_down = _periods(orientation, s)
        return abs(_coefficient(across, p_across)) * abs(_coefficient(down, p_down))

    size = max((size * (1.0 + i / 200.0) for i in range(-16, 17)), key=strength)
    lo, hi = size * 0.995, size * 1.005
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = strength(a), strength(b)
    for _ in range(12):
        if fa > fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = strength(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = strength(b)
    return (lo + hi) / 2.0


class _Grid:
    """The found lattice, worked out in the board's frame (flat-topped hexes) of the reduced
    picture: the picture itself, or for pointed-topped hexes the picture turned a quarter."""

    def __init__(
        self,
        picture: Picture,
        orientation: Orientation,
        size: float,
        slope: float,
        across: tuple[list[float], list[float]],
        down: tuple[list[float], list[float]],
    ) -> None:
        self.picture = picture
        self.orientation = orientation
        self.size = size
        self.slope = slope
        if orientation == "flat":
            columns, lines = across, down
            self.frame = (picture.width, picture.height)
        else:
            columns = (down[0][::-1], [-v for v in down[1][::-1]])
            lines = across
            self.frame = (picture.height, picture.width)
        # darkness peaks midway between column centres and on the horizontal edges; the
        # lines are dark or light, whichever shows the columns' bands the stronger (what
        # lies at the hexes' centres, a token or a glyph, would tell thin lines apart)
        pitch, half_height = 1.5 * size, _SQRT3 / 2.0 * size
        fits = {
            sign: (
                _fitted(columns[0], pitch, _peak(columns[1], pitch, sign), sign, thin=False),
                _fitted(lines[0], half_height, _peak(lines[1], half_height, sign), sign, thin=True),
            )
            for sign in (1.0, -1.0)
        }

        def strength(sign: float) -> float:
            fit = fits[sign][0]
            return fit.strength if fit else 0.0

        sign = max(fits, key=strength)
        self.dark = sign > 0
        between, edges = fits[sign]
        self.lines_found = between is not None and edges is not None
        self.x0 = self.y0 = self.edges_apart = 0.0
        if between is None or edges is None:
            return
        # the two periods' estimates of the size, weighed by their precision
        weight_columns = 1.5**2 / between.variance
        weight_lines = (_SQRT3 / 2.0) ** 2 / edges.variance
        self.size = size = (
            between.period / 1.5 * weight_columns + edges.period / (_SQRT3 / 2.0) * weight_lines
        ) / (weight_columns + weight_lines)
        pitch, half_height = 1.5 * size, _SQRT3 / 2.0 * size
        self.x0 = (between.middle - 0.75 * size) % pitch
        self.y0 = edges.middle % half_height
        here, there = self._line_score(self.y0), self._line_score(self.y0 + half_height)
        if here > there:
            self.y0 += half_height
        self.edges_apart = abs(here - there) / max(here, there, 1.0)

    def _to_picture(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board's frame in the reduced picture, tilt included."""
        if self.orientation == "pointed":
            x, y = y, self.picture.height - x
        cx, cy = self.picture.width / 2.0, self.picture.height / 2.0
        cos, sin = math.cos(math.atan(self.slope)), math.sin(math.atan(self.slope))
        dx, dy = x - cx, y - cy
        return cx + dx * cos - dy * sin, cy + dx * sin + dy * cos

    def _line_score(self, y0: float) -> float:
        """How much the points of the lattice with a centre at ``(x0, y0)`` look like lines."""
        w, h, grey = self.picture.width, self.picture.height, self.picture.grey
        frame_w, frame_h = self.frame
        pitch, height = 1.5 * self.size, _SQRT3 * self.size
        columns = max(1, int(frame_w / pitch))
        rows = max(1, int(frame_h / height))
        stride_c, stride_r = max(1, columns // 20), max(1, rows // 20)
        total, count = 0.0, 0
        for i in range(0, columns, stride_c):
            x = self.x0 + i * pitch
            for j in range(0, rows, stride_r):
                y = y0 + j * height + (height / 2.0 if i % 2 else 0.0)
                px, py = self._to_picture(x, y)
                ix, iy = int(px), int(py)
                if not (1 <= ix < w - 1 and 1 <= iy < h - 1):
                    continue
                around = [grey[(iy + dy) * w + ix + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
                total += (255 - min(around)) if self.dark else max(around)
                count += 1
        return total / count if count else 0.0

    def proposal(self, scale: float, confidence: float) -> GridProposal:
        """The lattice as the board's hex (0, 0) and the whole hexes the picture holds."""
        s = self.size
        pitch, height = 1.5 * s, _SQRT3 * s
        frame_w, frame_h = self.frame
        margin = _WHOLE * s
        x = self.x0
        y = self.y0
        # the column's own centres sit at y0 + k·height; step to its first whole hex, then
        # to the first whole column (its neighbours' centres half a hex up and down)
        while x - s < -margin:
            x += pitch
            y += height / 2.0
        y %= height
        while y - height / 2.0 < -margin:
            y += height
        if y - height >= 0.0:  # the next column's hex above lies whole inside: start there
            x += pitch
            y -= height / 2.0
        columns = max(0, int((frame_w + margin - s - x) // pitch) + 1)
        rows = max(0, int((frame_h + margin - y - height) // height) + 1)
        return GridProposal(
            orientation=self.orientation,
            hex_size=s / scale,
            offset=(x / scale, y / scale),
            columns=columns,
            rows=rows,
            tilt=math.degrees(math.atan(self.slope)),
            confidence=confidence,
        )


@dataclass(frozen=True, slots=True)
class _Lines:
    """A straight fit through lines found one by one: where the one nearest the profile's
    middle lies, the period, the period's variance and the lines' summed strength."""

    middle: float
    period: float
    variance: float
    strength: float


def _line_strength(profile: list[float], period: float, sign: float, *, thin: bool) -> list[float]:
    """How strongly a line of the grid lies at each place of ``profile`` (darkness: times
    ``-sign``).

    A thin line's strength is its darkness over that on either side of it, close by (which
    cancels the terrain's changing shades). The columns' slanted edges make wide bands over
    a ramp from one column's shade to the next: their strength is the darkening at one edge
    of the band and the lightening at the other, a quarter of a hex either side."""
    n = len(profile)
    sums = [0.0]
    for v in profile:
        sums.append(sums[-1] - sign * v)
    half = 0 if thin else round_half_up(period / 24.0)
    dark = [
        (sums[min(n, i + half + 1)] - sums[max(0, i - half)])
        / (min(n, i + half + 1) - max(0, i - half))
        for i in range(n)
    ]

    def at(i: int) -> float:
        return dark[min(n - 1, max(0, i))]

    if thin:
        gap = max(2, round_half_up(period / 8.0))
        return [dark[i] - 0.5 * (at(i - gap) + at(i + gap)) for i in range(n)]
    m = max(0, round_half_up(period / 6.0 - 0.5))
    return [(at(i - m) - at(i - m - 1)) - (at(i + m + 1) - at(i + m)) for i in range(n)]


def _found_lines(
    strength: list[float], first: float, period: float
) -> list[tuple[int, float, float]]:
    """The strongest place within a quarter period of each ``first + k·period`` (to a
    fraction of a pixel), as (k, place, strength), keeping the ones at least 0.4 times as
    strong as the typical one."""
    n = len(strength)
    found: list[tuple[int, float, float]] = []
    k = -math.floor((first - period / 2.0) / period)
    while first + k * period < n - period / 2.0:
        expected = first + k * period - 0.5
        lo = max(1, round_half_up(expected - period / 4.0))
        hi = min(n - 1, round_half_up(expected + period / 4.0) + 1)
        if hi > lo:
            i = max(range(lo, hi), key=strength.__getitem__)
            a, b, c = strength[i - 1], strength[i], strength[i + 1]
            bend = a - 2.0 * b + c
            if b > 0:
                found.append((k, i + 0.5 + (0.5 * (a - c) / bend if bend < 0 else 0.0), b))
        k += 1
    if not found:
        return found
    typical = sorted(w for _, _, w in found)[len(found) // 2]
    return [f for f in found if f[2] >= 0.4 * typical]


def _fitted(
    profile: list[float], period: float, near: float, sign: float, *, thin: bool
) -> _Lines | None:
    """The lines of ``profile`` near ``near + k·period``, found one by one and fitted with a
    straight line three times over (dropping the ones an eighth of a period off the last
    fit). None when fewer than three are found."""
    strength = _line_strength(profile, period, sign, thin=thin)
    first = near + round_half_up((len(profile) / 2.0 - near) / period) * period
    fit: _Lines | None = None
    for _ in range(3):
        found = _found_lines(strength, first, period)
        if fit is not None:
            last = fit
            found = [f for f in found if abs(f[1] - last.middle - last.period * f[0]) < period / 8]
        if len(found) < 3:
            return fit
        total = sum(w for _, _, w in found)
        mk = sum(k * w for k, _, w in found) / total
        mx = sum(x * w for _, x, w in found) / total
        skk = sum(w * (k - mk) ** 2 for k, _, w in found)
        if skk <= 0:
            return fit
        slope = sum(w * (k - mk) * (x - mx) for k, x, w in found) / skk
        middle = mx - slope * mk
        residual = sum(w * (x - middle - slope * k) ** 2 for k, x, w in found) / total
        variance = max(residual, 0.01) / (skk / total)
        fit = _Lines(middle, slope, variance, total)
        first, period = middle, slope
    return fit


def _peak(steps: list[float], period: float, sign: float) -> float:
    """Where, modulo ``period``, the profile whose ``steps`` these are peaks (times ``sign``),
    in pixel coordinates (index 0 is the pixel centred at 0.5).

    The steps' coefficient is the profile's times ``e^(2πi/period) - 1``."""
    c = _coefficient([-sign * v for v in steps], period) / (cmath.exp(2j * math.pi / period) - 1)
    return (-cmath.phase(c) / (2.0 * math.pi) * period + 0.5) % period
