"""Dice: a small expression language, exact odds, rolls, and the sources of randomness.

The grammar (``shared/rules/README.md``, "Dice")::

    expr := term (("+"|"-") term)* ["min" INT] ["max" INT]
    term := dice | INT
    dice := [COUNT] ("d"|"D") [SIDES] [("kh"|"kl") INT]

Spaces and letter case do not matter; a leading sign and the typographic
minus (U+2212) or en dash (U+2013) are accepted as well. A ``D`` without sides
uses the ruleset's default die, so ``D-3`` with a default of 10 is ``d10-3``.

Randomness enters the engine only through a :class:`Dice` object:
:class:`SeededDice` for play (the same faces in CPython and Pyodide) and
:class:`ScriptedDice` for tests and for players who roll real dice.
Odds are exact fractions (:func:`distribution`, :func:`chance`).

Parts: :mod:`.expr` (limits, errors, terms, expressions), :mod:`.parser` (text to an
expression), :mod:`.odds` (exact distributions and chances), :mod:`.rolls` (rolls and dice
sources).
"""

from __future__ import annotations

from hexcombat.dice.expr import COMPARISONS as COMPARISONS
from hexcombat.dice.expr import MAX_DICE_PER_TERM as MAX_DICE_PER_TERM
from hexcombat.dice.expr import MAX_NUMBER as MAX_NUMBER
from hexcombat.dice.expr import MAX_SIDES as MAX_SIDES
from hexcombat.dice.expr import MAX_TEXT_LENGTH as MAX_TEXT_LENGTH
from hexcombat.dice.expr import MAX_WORK as MAX_WORK
from hexcombat.dice.expr import MIN_SIDES as MIN_SIDES
from hexcombat.dice.expr import DiceComplexityError as DiceComplexityError
from hexcombat.dice.expr import DiceExhaustedError as DiceExhaustedError
from hexcombat.dice.expr import DiceExpr as DiceExpr
from hexcombat.dice.expr import DiceFaceError as DiceFaceError
from hexcombat.dice.expr import DiceSyntaxError as DiceSyntaxError
from hexcombat.dice.expr import DiceTerm as DiceTerm
from hexcombat.dice.expr import compare as compare
from hexcombat.dice.odds import chance as chance
from hexcombat.dice.odds import chance_opposed as chance_opposed
from hexcombat.dice.odds import distribution as distribution
from hexcombat.dice.parser import parse as parse
from hexcombat.dice.rolls import Dice as Dice
from hexcombat.dice.rolls import Die as Die
from hexcombat.dice.rolls import Roll as Roll
from hexcombat.dice.rolls import Rolled as Rolled
from hexcombat.dice.rolls import ScriptedDice as ScriptedDice
from hexcombat.dice.rolls import SeededDice as SeededDice
from hexcombat.dice.rolls import dice_words as dice_words
from hexcombat.dice.rolls import evaluate as evaluate
