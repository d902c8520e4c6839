"""Every error class of the engine is a HexcombatError (still a ValueError), and bad input
through the public API raises one by its cause."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable

import pytest
from factories import skirmish_duel

import hexcombat
from hexcombat import HexcombatError, InvalidValueError
from hexcombat.checks import CheckError, Modifier
from hexcombat.dice import (
    DiceComplexityError,
    DiceExhaustedError,
    DiceFaceError,
    DiceSyntaxError,
    ScriptedDice,
    distribution,
    evaluate,
    parse,
)
from hexcombat.geometry import Hex
from hexcombat.qr import QrTooLongError, encode
from hexcombat.view import sight_view

pytestmark = pytest.mark.pyodide


def engine_error_classes() -> list[type[BaseException]]:
    """Every exception class defined in a hexcombat module (every module imported)."""
    found = []
    for info in pkgutil.walk_packages(hexcombat.__path__, "hexcombat."):
        if info.name == "hexcombat.__main__":
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == info.name:
                found.append(cls)
    return found


def test_every_engine_error_class_is_a_hexcombat_error_and_a_value_error() -> None:
    classes = engine_error_classes()
    assert {c.__name__ for c in classes} >= {
        "DiceSyntaxError",
        "DiceFaceError",
        "DiceExhaustedError",
        "DiceComplexityError",
        "CheckError",
        "QrTooLongError",
        "InvalidValueError",
        "MoreDiceNeededError",
    }
    assert [c.__name__ for c in classes if not issubclass(c, HexcombatError)] == []
    assert all(issubclass(c, ValueError) for c in classes)


def _bad_inputs() -> dict[str, tuple[Callable[[], object], type[HexcombatError]]]:
    enc = skirmish_duel()
    ann = enc.state.figures["ann"]
    return {
        "dice text": (lambda: parse("3d"), DiceSyntaxError),
        "typed face off the die": (lambda: evaluate("d6", [7]), DiceFaceError),
        "typed dice run out": (lambda: ScriptedDice([]).roll("d6"), DiceExhaustedError),
        "odds too costly": (lambda: distribution("100d1000kh50"), DiceComplexityError),
        "modifier JSON": (lambda: Modifier.from_json({"value": "three"}), CheckError),
        "QR text too long": (lambda: encode("x" * 8000), QrTooLongError),
        "hex text": (lambda: Hex.parse("3;1"), InvalidValueError),
        "board size": (lambda: enc.resized(0, 6), InvalidValueError),
        "terrain id": (lambda: enc.painted([Hex(1, 1)], "lava"), InvalidValueError),
        "hex off the board": (lambda: sight_view(enc, "ann", Hex(40, 40)), InvalidValueError),
        "item name": (lambda: ann.item("trebuchet"), InvalidValueError),
    }


@pytest.mark.parametrize("case", list(_bad_inputs()))
def test_bad_input_raises_the_engine_error_of_its_cause(case: str) -> None:
    make, error = _bad_inputs()[case]
    with pytest.raises(error) as caught:
        make()
    assert str(caught.value)


def test_a_board_size_of_5000_digits_is_described_by_its_size() -> None:
    with pytest.raises(InvalidValueError, match="a whole number of 5000 digits"):
        skirmish_duel().resized(10**4999, 6)
