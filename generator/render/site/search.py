"""Search that treats the texts' spelling variants alike (armour/armor, moral/morale).

Sphinx stems words in Python when indexing and in JavaScript when querying; both
sides map a variant to one spelling before stemming, so either finds both.
"""

from __future__ import annotations

import json

from sphinx.application import Sphinx
from sphinx.search import languages
from sphinx.search.en import SearchEnglish

# variant -> the spelling both index and query use. British spellings and the texts' own.
VARIANTS = {
    "armor": "armour", "armors": "armours", "armored": "armoured",
    "morale": "moral", "morales": "moral",
    "color": "colour", "colors": "colours", "colored": "coloured",
    "maneuver": "manoeuvre", "maneuvers": "manoeuvres", "maneuvering": "manoeuvering",
    "defense": "defence", "honor": "honour", "valor": "valour",
    "initative": "initiative", "simoultaneous": "simultaneous", "sucessful": "successful",
}


class RulesEnglish(SearchEnglish):
    def stem(self, word: str) -> str:
        word = word.lower()
        return super().stem(VARIANTS.get(word, word))


def install_search_language(app: Sphinx) -> None:
    languages["en"] = RulesEnglish
    app.add_js_file(None, body=variants_script(), priority=900)


def variants_script() -> str:
    return f"""// Generated from generator/render/site/search.py: map spelling variants before stemming.
(function () {{
  const variants = {json.dumps(VARIANTS, sort_keys=True)};
  function wrap() {{
    const Base = window.Stemmer;
    if (!Base || Base.rulepressWrapped) return;
    function Stemmer() {{
      const base = new Base();
      this.stemWord = (word) => base.stemWord(variants[word.toLowerCase()] || word);
    }}
    Stemmer.rulepressWrapped = true;
    window.Stemmer = Stemmer;
  }}
  wrap();
  document.addEventListener("DOMContentLoaded", wrap);
}})();
"""
