#!/usr/bin/env python3
"""Write the README's first program (the first ```c block after "A first program") to a file,
exactly as written, so that the build compiles it and the test suite runs it."""
import sys


def main() -> int:
    readme, output = sys.argv[1], sys.argv[2]
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    anchor = text.find("A first program")
    if anchor < 0:
        sys.exit(f"{readme}: no paragraph 'A first program'")
    start = text.find("```c\n", anchor)
    end = text.find("\n```", start + 5)
    if start < 0 or end < 0:
        sys.exit(f"{readme}: no ```c block after 'A first program'")
    with open(output, "w", encoding="utf-8") as f:
        f.write(text[start + 5:end + 1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
