"""Cheat-sheet charts as plain data: rows of cells, every number from the mechanics.

Nothing here knows HTML or Markdown. Each chart function returns a :class:`Chart`
whose cells carry display text, the exact chance behind it and a *tone* (how good
the odds are) that templates turn into bold, shading or hatching, so a chart reads
the same printed in grey. Probabilities stay exact ``Fraction``s until ``percent``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..mechanics import fantasy, rampant_hex, shellendrak
from .present import chance_text  # sheets print chances the way every output does

GOOD = Fraction(2, 3)  # a 3+ or better on a D6
POOR = Fraction(1, 3)  # a 5+ or worse


@dataclass(frozen=True)
class Cell:
    text: str  # "4+", "no effect", "1.5"
    chance: str = ""  # "50%"; empty when the text is itself the number
    tone: str = "even"  # good | even | poor | none | plain
    probability: Fraction | None = None
    marked: bool = False  # the cell where both stats are equal, to find one's place


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Chart:
    title: str
    row_head: str  # what the row labels are: "Attacker WS"
    column_head: str  # what the column labels are: "Defender WS"
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = ()
    column_notes: tuple[str, ...] = field(default_factory=tuple)  # a second header line per column

    def cell(self, row: str, column: str) -> Cell:
        return next(r for r in self.rows if r.label == row).cells[self.columns.index(column)]


def tone(probability: Fraction) -> str:
    """How good a chance is, in the bands the sheet legend names."""
    if probability == 0:
        return "none"
    if probability >= GOOD:
        return "good"
    if probability <= POOR:
        return "poor"
    return "even"


def chance_cell(text: str, probability: Fraction, marked: bool = False, impossible: str = "") -> Cell:
    if probability == 0 and impossible:
        return Cell(impossible, "0%", "none", probability, marked)
    return Cell(text, chance_text(probability), tone(probability), probability, marked)


def target_with_chance(target: int | None) -> str:
    """`4+ (50%)`: a target number is never printed without its chance."""
    return f"{fantasy.target_text(target)} ({chance_text(fantasy.target_chance(target))})"


def decimal_text(value: Fraction, digits: int = 2) -> str:
    """An exact value rounded for people: 5/6 is 0.83, 3/2 is 1.5, 2 is 2."""
    text = f"{float(round(Fraction(value), digits)):.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


STATS = tuple(range(1, 11))


# -- Warhammer Fantasy charts (000 § Shooting Phase, § Armor) ---------------------------------------
def to_hit_chart(stats=STATS) -> Chart:
    rows = tuple(
        Row(str(attacker), tuple(chance_cell(fantasy.target_text(target := fantasy.to_hit_melee(attacker, defender)),
                                             fantasy.target_chance(target), marked=attacker == defender)
                                 for defender in stats))
        for attacker in stats)
    hit = lambda attacker, defender: target_with_chance(fantasy.to_hit_melee(attacker, defender))  # noqa: E731
    return Chart("Close combat: to hit", "Attacker's WS", "Defender's WS", tuple(map(str, stats)), rows, notes=(
        f"Against a lower Weapon Skill {hit(2, 1)}; against more than double the attacker's {hit(1, 3)}; "
        f"otherwise {hit(1, 1)}.",
    ))


def to_wound_chart(stats=STATS) -> Chart:
    rows = tuple(
        Row(str(strength), tuple(chance_cell(fantasy.target_text(target := fantasy.to_wound(strength, toughness)),
                                             fantasy.target_chance(target), marked=strength == toughness,
                                             impossible="no effect")
                                 for toughness in stats))
        for strength in stats)
    wound = lambda s, t: target_with_chance(fantasy.to_wound(s, t))  # noqa: E731
    return Chart("To wound", "Strength", "Toughness", tuple(map(str, stats)), rows, notes=(
        f"Strength equal to Toughness {wound(3, 3)}; one easier for each point of Strength above, down to "
        f"{wound(stats[-1], stats[0])}; one harder for each point below; no effect when Toughness is three or more "
        "above Strength.",
    ))


BASE_SAVES = (2, 3, 4, 5, 6)


def armour_chart(title: str, saves=BASE_SAVES, strengths=STATS, **how) -> Chart:
    """Base save against hit Strength; ``how`` is ``armour_piercing=True`` or ``critical_roll=n``."""
    critical = how.pop("critical_roll", None)

    def save(base: int, strength: int) -> int | None:
        if critical is not None:
            return shellendrak.critical_armour_save(base, strength, critical, **how)
        return fantasy.armour_save(base, strength, **how)

    rows = tuple(
        Row(fantasy.target_text(base), tuple(chance_cell(fantasy.target_text(target := save(base, strength)),
                                                         fantasy.target_chance(target), impossible="no save")
                                             for strength in strengths))
        for base in saves)
    return Chart(title, "Armour save", "Strength of the hit", tuple(map(str, strengths)), rows)


def armour_charts() -> tuple[Chart, ...]:
    return (
        armour_chart("Armour save against the Strength of the hit"),
        armour_chart("With armour piercing", armour_piercing=True),
        armour_chart("After a critical hit that is not a Killing Blow", critical_roll=1),
    )


# Columns of the shooting chart: no modifier, each single one, and the usual combinations.
SHOOTING_COLUMNS: tuple[tuple[str, ...], ...] = (
    (), ("cover",), ("moving",), ("long range",), ("large target",),
    ("cover", "moving"), ("cover", "long range"), ("moving", "long range"), ("cover", "moving", "long range"),
    ("large target", "cover"), ("large target", "long range"),
)


def modifier_total(modifiers: tuple[str, ...]) -> int:
    return sum(fantasy.SHOOTING_MODIFIERS[name] for name in modifiers)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else ("±0" if number == 0 else f"−{-number}")


def shooting_chart(skills=STATS, columns=SHOOTING_COLUMNS) -> Chart:
    rows = tuple(
        Row(str(bs), tuple(chance_cell(fantasy.target_text(fantasy.to_hit_shooting(bs, *mods)),
                                       fantasy.shooting_chance(bs, *mods), impossible="cannot hit")
                           for mods in columns))
        for bs in skills)
    beyond_six = {cell.text: cell.chance for row in rows for cell in row.cells
                  if cell.tone != "none" and int(cell.text.rstrip("+")) > 6}
    notes = ["The roll needed is seven minus the BS, one harder for each −1 and one easier for +1; "
             "a natural 1 always misses."]
    if beyond_six:
        shown = ", ".join(f"{text} ({chance})" for text, chance in sorted(beyond_six.items()))
        notes.append(f"{shown}: a 6, then a second roll, as in Fantasy; the chances include both rolls.")
    return Chart("Shooting: to hit", "BS", "Modifiers", tuple(" + ".join(m) or "none" for m in columns), rows,
                 column_notes=tuple(signed(modifier_total(m)) for m in columns), notes=tuple(notes))


def fantasy_extras() -> tuple[tuple[str, str], ...]:
    """Shellendrak modifiers to the close-combat roll, each with its computed chance."""
    fear = shellendrak.close_combat_hit_chance(3, 3, afraid=True)
    hatred = ", ".join(f"{target_with_chance(fantasy.to_hit_melee(*ws))} becomes "
                       f"{chance_text(shellendrak.close_combat_hit_chance(*ws, hatred=True))}"
                       for ws in ((2, 1), (1, 1), (1, 3)))
    return (("fear_tests", f"Failed Fear test: needs 6s to hit the feared enemy ({chance_text(fear)})."),
            ("hated_enemies", f"Hatred re-rolls a failed to-hit roll: {hatred}."))


# -- Blood, Guts and Rampant Hex (004) ------------------------------------------------------------------
ATTACK_DICE = (1, 2, 3, 4, 5, 6)
ARMOURS = (1, 2, 3, 4, 5)
MORAL_DICE = (1, 2, 3, 4, 5, 6)
HIT_MARKERS = (0, 1, 2, 3, 4, 5, 6)


def lowest_roll(succeeds) -> int | None:
    """The lowest D6 roll for which ``succeeds(roll)`` holds: the target number the rule implies."""
    return next((roll for roll in range(1, 7) if succeeds(roll)), None)


def hit_target(armour: int) -> int | None:
    return lowest_roll(lambda roll: rampant_hex.attack_hits([roll], armour) == 1)


def moral_target(hit_markers: int) -> int | None:
    return lowest_roll(lambda roll: rampant_hex.passes_moral([roll], hit_markers))


def die_hits(armour: int) -> str:
    """What one attack die needs against this ARMOUR, with its chance."""
    return f"{target_with_chance(hit_target(armour))} a die"


def die_passes(hit_markers: int) -> str:
    target = moral_target(hit_markers)
    return "no die passes" if target is None else f"{target_with_chance(target)} a die"


def expected_hits_chart(attacks=ATTACK_DICE, armours=ARMOURS) -> Chart:
    rows = tuple(Row(str(a), tuple(Cell(decimal_text(rampant_hex.expected_hits(a, armour)), "", "plain",
                                        rampant_hex.expected_hits(a, armour)) for armour in armours))
                 for a in attacks)
    return Chart("Expected hits", "ATTACK", "ARMOUR", tuple(map(str, armours)), rows,
                 column_notes=tuple(die_hits(armour) for armour in armours), notes=(
        "ATTACK dice rolled down the side, the target's ARMOUR across. Each die that scores higher than the "
        "ARMOUR is one hit; the average number of hits, to two places.",
    ))


def a_hit_chart(attacks=ATTACK_DICE, armours=ARMOURS) -> Chart:
    rows = tuple(Row(str(a), tuple(chance_cell("", rampant_hex.chance_of_a_hit(a, armour), impossible="no hit")
                                   for armour in armours))
                 for a in attacks)
    return Chart("Chance of at least one hit", "ATTACK", "ARMOUR", tuple(map(str, armours)), rows,
                 column_notes=tuple(die_hits(armour) for armour in armours), notes=(
        "The chance that at least one of the ATTACK dice scores higher than the ARMOUR.",
    ))


def moral_chart(morals=MORAL_DICE, markers=HIT_MARKERS) -> Chart:
    rows = tuple(Row(str(m), tuple(chance_cell("", rampant_hex.moral_pass_chance(m, h), impossible="cannot pass")
                                   for h in markers))
                 for m in morals)
    return Chart("Passing a moral check", "MORAL", "Hit markers", tuple(map(str, markers)), rows,
                 column_notes=tuple(die_passes(h) for h in markers), notes=(
        "MORAL dice rolled down the side. Passes if any die is higher than the unit's hit markers. "
        "A command unit adds a die: read the next row down.",
    ))


def rampant_hex_charts() -> tuple[Chart, ...]:
    return expected_hits_chart(), a_hit_chart(), moral_chart()
