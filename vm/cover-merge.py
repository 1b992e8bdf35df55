#!/usr/bin/env python3
"""Carry a cover letter's hand-written subject and blurb into a fresh one.

usage: cover-merge.py OLD NEW

`git format-patch --cover-letter` writes placeholders (*** SUBJECT HERE ***,
*** BLURB HERE ***) above a generated shortlog and diffstat. OLD is the cover
letter kept in patches/; its subject and blurb replace the placeholders in NEW,
which is rewritten in place. The generated parts of NEW are kept as they are.
"""
import re
import sys

SHORTLOG = re.compile(r"^\S.* \(\d+\):$")


def split(text):
    """Return (subject, blurb) of a cover letter."""
    head, _, body = text.partition("\n\n")
    subject = ""
    for line in head.splitlines():
        if line.startswith("Subject:"):
            subject = re.sub(r"^Subject:\s*(\[[^]]*\]\s*)?", "", line)
    blurb = []
    for line in body.splitlines():
        if SHORTLOG.match(line):
            break
        blurb.append(line)
    return subject, "\n".join(blurb).strip("\n")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: cover-merge.py OLD NEW")
    with open(argv[1], encoding="utf-8") as f:
        subject, blurb = split(f.read())
    with open(argv[2], encoding="utf-8") as f:
        new = f.read()
    if "*** SUBJECT HERE ***" in subject or not subject:
        return
    new = new.replace("*** SUBJECT HERE ***", subject, 1)
    new = new.replace("*** BLURB HERE ***", blurb, 1)
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    main(sys.argv)
