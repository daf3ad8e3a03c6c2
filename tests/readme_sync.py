#!/usr/bin/env python3
"""Checks that every example between '// README begin NAME' and '// README end NAME' in
tests/readme_examples.cpp appears verbatim (dedented) in README.md, so the README shows
only code that the test suite compiles and runs.

    readme_sync.py README.md tests/readme_examples.cpp
"""
import re
import sys
import textwrap

readme_path, examples_path = sys.argv[1], sys.argv[2]
readme = open(readme_path, encoding="utf-8").read()
examples = open(examples_path, encoding="utf-8").read()
snippets = re.findall(r"// README begin (\w+)\n(.*?)// README end \1", examples, re.S)
if not snippets:
    sys.exit(f"no README snippets found in {examples_path}")
missing = [name for name, body in snippets if textwrap.dedent(body).strip() not in readme]
for name in missing:
    print(f"README.md lacks the '{name}' example of {examples_path} (or it differs)")
print(f"{len(snippets) - len(missing)} of {len(snippets)} examples found in README.md")
sys.exit(1 if missing else 0)
