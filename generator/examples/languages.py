"""How each language writes the numbers a worked example's sentence states (examples/sentence.py reads them).

English, French and German have their number words, parts and chances here; a language not here is read for its
digits alone (``DIGITS_ONLY``), and `check` warns of it. Adding a language is adding one ``Language``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, eq=False)  # one of each language: hashed as itself
class Language:
    """How a language writes the numbers a sentence states: its number words, the parts of a whole (a third), how
    a chance is put (one roll in six, 2 sur 3), how a number is hedged (about 3), and its decimal marks. Everything
    else (digits, 1½, 3/4, 41.7%, 2D6, sums) reads alike in every language."""

    words: dict[str, int | Fraction]  # number words read alone (two, deux, twenty-one, viereinhalb)
    ratio_words: dict[str, int]  # twice: two numbers of the example in that ratio, or the number
    ones: tuple[str, ...]  # a, an, un, une: one before a part (a third)
    chance_ones: tuple[str, ...]  # un, une: one in a chance (une fois sur deux) too, where it is no number word
    parts: dict[str, int]  # third, tiers: the parts of the dice games roll
    halves: str  # a half standing alone (half the time, la moitié)
    mixed: str  # one and a half: a word, this, a part
    part_follows: str  # what follows a part that is one (of, des): "a third hit" is an ordinal
    tries: str  # what a chance counts (rolls, jets); a turn or a hex is no chance
    drawn: str  # what is drawn from a deck or a cup (cards, chits): a chance as N of them in M (one card in four),
    # where a part of them (a quarter of the cards) is a part of the deck, as of any whole
    between: str  # what joins the two numbers of a chance (in, sur)
    of_the_tries: str  # a part of the tries (a third of the rolls): a chance, not a ratio
    ratio_times: str  # deux fois: a word, then this, for twice ("" where the language has words for it)
    not_numbers: str  # "one" as a pronoun, "Once" opening a clause
    hedges: dict[str, str]  # over, under, about: the words that hedge a number so
    decimals: str = "."  # the marks a decimal is written with: French and German write 27,8 (and read 27.8)
    thousands: str = ","  # the marks that group thousands (1,000; 1.000; 1 000): one before exactly three digits
    every: str = r"(?!x)x"  # every (jeder): before an ordinal of the tries, a chance (every third roll: 1/3)
    ordinals: dict[str, int] = field(default_factory=dict)  # second, third (zweite, dritte): after ``every``
    one_between: str = ""  # what joins a chance after an article read as one (einer von sechs), if not ``between``


def _english_tens() -> dict[str, int]:
    """twenty-one to ninety-nine, and a hundred."""
    units = "one two three four five six seven eight nine".split()
    tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()
    found = {ten: 10 * (t + 2) for t, ten in enumerate(tens)}
    found |= {f"{ten}-{unit}": 10 * (t + 2) + u + 1 for t, ten in enumerate(tens) for u, unit in enumerate(units)}
    return found | {"hundred": 100, "a hundred": 100, "one hundred": 100}


def _french_tens() -> dict[str, int]:
    """vingt et un to quatre-vingt-dix-neuf, and cent."""
    units = "un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept dix-huit"
    units = dict(zip(["", *units.split(), "dix-neuf"], range(20)))
    found = {}
    for tens, word in ((20, "vingt"), (30, "trente"), (40, "quarante"), (50, "cinquante"), (60, "soixante")):
        for unit, n in units.items():
            if tens < 60 and n >= 10:
                continue
            join = "" if not unit else " et " if n in (1, 11) else "-"
            found[f"{word}{join}{unit}"] = tens + n
    for unit, n in units.items():  # quatre-vingts, quatre-vingt-un (no "et"), quatre-vingt-dix-neuf
        found["quatre-vingts" if not unit else f"quatre-vingt-{unit}"] = 80 + n
    return found | {"cent": 100}


def _german_tens() -> dict[str, int]:
    """einundzwanzig to neunundneunzig (and dreißig written dreissig), hundert, einhundert."""
    units = "ein zwei drei vier fünf sechs sieben acht neun".split()
    tens = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()
    found = {}
    for t, ten in enumerate(tens):
        for spelled in {ten, ten.replace("ß", "ss")}:
            found[spelled] = 10 * (t + 2)
            found |= {f"{unit}und{spelled}": 10 * (t + 2) + u + 1 for u, unit in enumerate(units)}
    return found | {"hundert": 100, "einhundert": 100}


ENGLISH = Language(
    words={
        word: number
        for number, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
            "seventeen eighteen nineteen twenty".split()
        )
    }
    | _english_tens()
    | {"once": 1},
    ratio_words={"twice": 2, "thrice": 3},
    ones=("a", "an", "one"),
    chance_ones=(),
    parts={
        "half": 2,
        **{
            f"{word}{s}": n for word, n in (("third", 3), ("quarter", 4), ("fifth", 5), ("sixth", 6)) for s in ("", "s")
        },
        **{f"{word}{s}": n for word, n in (("eighth", 8), ("tenth", 10), ("twelfth", 12)) for s in ("", "s")},
    },
    halves=r"half",
    mixed=r"and\s+an?",
    part_follows=r"of",
    tries=r"(?:times?|rolls?|throws?|tries|try|attempts?|casts?|castings?|games?|dice|die|goes|draws?)",
    drawn=r"(?:cards?|chits?)",
    between=r"(?:in|out\s+of)",
    of_the_tries=r"(?:of\s+)?(?:(?:the|all|your|its|their|his|her)\s+)?{tries}\b(?!\s+(?:as|than)\b)",
    ratio_times="",
    not_numbers=r"(?i:no[- ]one|(?:any|each|every|the|this|that|which)\s+one)\b|\bone(?=\s+(?:of|another)\b"
    r"|\s+\d|'s)|(?:^|(?<=[.;:!?(]\s))Once\b|\bOnce(?=\s+(?:a|an|the|it|he|she|they)\b)",
    hedges={
        "over": r"(?:a\s+little|just|slightly)\s+(?:over|more\s+than|above)",
        "under": r"(?:a\s+little|just|slightly)\s+(?:under|less\s+than|below)|nearly|almost",
        "about": r"about|around|roughly",
    },
    every=r"every",
    ordinals={"other": 2, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6},
)
FRENCH = Language(
    words={
        word: number
        for number, word in enumerate(
            "zéro _ deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept "
            "dix-huit dix-neuf vingt".split()
        )
        if word != "_"  # un, une: the article as often as the number, read as one only before a part or in a chance
    }
    | _french_tens(),
    ratio_words={},
    ones=("un", "une"),
    chance_ones=("un", "une"),
    parts={
        "demi": 2,
        "demie": 2,
        "tiers": 3,
        **{f"{word}{s}": n for word, n in (("quart", 4), ("cinquième", 5), ("sixième", 6)) for s in ("", "s")},
        **{f"{word}{s}": n for word, n in (("huitième", 8), ("dixième", 10), ("douzième", 12)) for s in ("", "s")},
    },
    halves=r"(?:la\s+)?moitié",
    mixed=r"et",
    part_follows=r"(?:de|des|du|d['’])",
    tries=r"(?:fois|jets?|lancers?|lancés?|essais?|tentatives?|parties?|dés?|coups?|chances?|temps|tirages?|pioches?)",
    drawn=r"(?:cartes?)",
    between=r"sur",
    of_the_tries=r"(?:des|du|de\s+(?:tes|vos|ses|leurs|nos)|de\s+l['’])\s*{tries}\b",
    ratio_times=r"fois",
    not_numbers=r"(?!x)x",
    hedges={
        "over": r"(?:un\s+peu|légèrement|juste)\s+(?:plus\s+de|au-dessus\s+de)",
        "under": r"(?:un\s+peu|légèrement|juste)\s+(?:moins\s+de|en\s+dessous\s+de)|presque|près\s+de"
        r"|pas\s+tout\s+à\s+fait",
        "about": r"environ|à\s+peu\s+près|autour\s+de|approximativement|quelque",
    },
    decimals=",.",
    thousands=" \u00a0\u202f\u2009",  # 1 000, with a space or a narrow no-break one
)
GERMAN = Language(
    words={
        word: number
        for number, word in enumerate(
            "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn "
            "siebzehn achtzehn neunzehn zwanzig".split()
        )
    }
    | _german_tens()
    | {  # viereinhalb: 4½
        f"{word}einhalb": number + Fraction(1, 2)
        for number, word in enumerate("_ ein zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split())
        if number
    }
    | {"anderthalb": Fraction(3, 2), "einmal": 1},  # einmal: one in a chance alone (``not_numbers``)
    ratio_words={"zweimal": 2, "dreimal": 3, "doppelt": 2},
    ones=("ein", "eine", "einen", "einem", "einer", "eines"),
    chance_ones=("ein", "eine", "einen", "einem", "einer", "eines"),
    parts={  # in zwei Dritteln der Würfe: the dative plural
        "hälfte": 2,
        **{
            f"{word}{n_}": n
            for word, n in (("drittel", 3), ("viertel", 4), ("fünftel", 5), ("sechstel", 6))
            for n_ in ("", "n")
        },
        **{f"{word}{n_}": n for word, n in (("achtel", 8), ("zehntel", 10), ("zwölftel", 12)) for n_ in ("", "n")},
    },
    halves=r"(?:die\s+)?hälfte",
    mixed=r"und\s+ein",
    part_follows=r"(?:der|des|aller|von)",
    tries=r"(?:mal|würfen?|wurf|würfe|versuchen?|versuch|spielen?|spiel|würfeln?|fällen?|fall|fälle|chancen?|zeit"
    r"|ziehungen?)",
    drawn=r"(?:karten?)",
    between=r"(?:von|aus|in)",  # einmal in sechs Würfen
    of_the_tries=r"(?:der|aller|deiner|seiner|ihrer|eurer)\s+{tries}\b",
    ratio_times="",
    not_numbers=r"(?i:\beinmal\b(?!\s+(?:von|aus|in)\s))",  # noch einmal, auf einmal: no number
    hedges={
        "over": r"(?:etwas|knapp|gut)\s+(?:mehr\s+als|über)",
        "under": r"(?:etwas|knapp)\s+(?:weniger\s+als|unter)|fast|beinahe|knapp",
        "about": r"etwa|ungefähr|rund|circa",
    },
    decimals=",.",
    thousands=".\u00a0\u202f\u2009",  # 1.000, or with a thin space
    every=r"jede[rnms]?",  # jeder dritte Wurf: 1/3
    ordinals={
        f"{stem}{ending}": n
        for stem, n in (("zweit", 2), ("dritt", 3), ("viert", 4), ("fünft", 5), ("sechst", 6), ("acht", 8))
        for ending in ("e", "er", "en", "es", "em")
    },
    one_between=r"(?:von|aus)",  # eine in Deckung: an article
)
LANGUAGES = {"en": ENGLISH, "fr": FRENCH, "de": GERMAN}
# a language whose words are not known here: its numbers in digits alone are read (no word of it is a number)
DIGITS_ONLY = Language(
    words={},
    ratio_words={},
    ones=(),
    chance_ones=(),
    parts={},
    halves=r"(?!x)x",
    mixed=r"(?!x)x",
    part_follows=r"(?!x)x",
    tries=r"(?!x)x",
    drawn=r"(?!x)x",
    between=r"(?!x)x",
    of_the_tries=r"(?!x)x",
    ratio_times="",
    not_numbers=r"(?!x)x",
    hedges={"about": r"(?!x)x"},
)


def language_of(tag: str) -> Language | None:
    """The language a tag names (`fr`, `fr-CA`), None for one whose number words are not known here."""
    return LANGUAGES.get((tag or "en").partition("-")[0].lower())
