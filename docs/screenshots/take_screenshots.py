"""Take the documentation's screenshots again: every view at 1280×720, in English, Simplified
Chinese (``-zh``) and dark (``-dark``), from the app itself, offscreen.

    python docs/screenshots/take_screenshots.py [--out docs/screenshots] [--only request-view,compare]

The demo database is written to a temporary folder first (the built-in demo, always the same), and
each picture is one run of ``python -m prompt_inspector … --view … --screenshot``, which grabs the
window once the view is filled. The selected request is the README's: turn 4 of the demo's Claude
session, the narrator's first step. Chinese text needs a CJK font (``fonts-wqy-microhei``).
Look at every picture after taking it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SIZE = "1280x720"
# Turn 4 of the Claude session, narrator/main, step 1; and step 2 of the character tracker's tool
# loop in the DeepSeek session (docs/app.md's Chinese and dark picture).
REQUEST = "29877d78"
TOOL_LOOP_REQUEST = "8159a885"
PRESET = ROOT / "resources" / "samples" / "chatluna" / "tea-house-fox.yml"

# name → the app's arguments (``{db}`` is the demo database)
VIEWS = {
    "request-view": ["{db}", "--select", REQUEST],
    "cache-analysis": ["{db}", "--select", REQUEST, "--view=cache"],
    "turn-stepper": ["{db}", "--select", REQUEST, "--view=turn"],
    "compare": ["{db}", "--select", REQUEST, "--view=compare"],
    "order-editor": ["--view=order"],
    "blocks-editor": ["--view=blocks"],
    "preset-editor": ["--blocks-editor", str(PRESET)],
}
VARIANTS = {"": ("en", "light"), "-zh": ("zh_CN", "light"), "-dark": ("en", "dark")}


def shoot(args: list[str], out: Path, lang: str, theme: str) -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PROMPT_INSPECTOR_LANG": lang,
           "PROMPT_INSPECTOR_THEME": theme}
    done = subprocess.run([sys.executable, "-m", "prompt_inspector", *args, "--screenshot", str(out), "--size", SIZE],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    problems = [line for line in done.stderr.splitlines() if "propagateSizeHints" not in line]
    print(f"{out.name}: {'ok' if done.returncode == 0 else f'status {done.returncode}'}")
    for line in problems:
        print(f"  {line}")
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--only", help="comma-separated view names: " + ", ".join(VIEWS))
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else set(VIEWS)
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="pi-shots-") as folder:
        db = str(Path(folder) / "shot-demo.db")
        subprocess.run([sys.executable, "-m", "inspector", "demo", db, "--force"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        for name, view_args in VIEWS.items():
            if name not in wanted:
                continue
            filled = [a.format(db=db) for a in view_args]
            for suffix, (lang, theme) in VARIANTS.items():
                failed += shoot(filled, args.out / f"{name}{suffix}.png", lang, theme) != 0
        if "request-view" in wanted:
            failed += shoot([db, "--select", TOOL_LOOP_REQUEST], args.out / "request-view-zh-dark.png",
                            "zh_CN", "dark") != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
