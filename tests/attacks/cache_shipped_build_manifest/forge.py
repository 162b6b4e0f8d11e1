"""A build/ shipped with the contribution: built on the contributor's machine (so its manifest names the
keys this build will compute), then each player PDF replaced by its game-master twin."""
import os
import subprocess
import sys
from pathlib import Path

project = Path(sys.argv[1]).resolve()
subprocess.run([sys.executable, "-m", "generator", "-C", str(project), "build", "--only", "handouts"], check=True,
               capture_output=True, env={**os.environ, "RULEPRESS_WALL": os.environ.get("RULEPRESS_WALL", "auto")})
swapped = 0
for gm in (project / "build" / "handouts").glob("*-gm*.pdf"):
    player = gm.with_name(gm.name.replace("-gm", ""))
    if player.is_file():
        player.write_bytes(gm.read_bytes())
        swapped += 1
assert swapped, "the contributor's build wrote no player handout with a game-master twin"
