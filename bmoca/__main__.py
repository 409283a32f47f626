"""`python -m bmoca ...` is the `bmoca` command (for environments without the console
script on PATH, such as a plain checkout)."""

from bmoca.cli.main import main

if __name__ == "__main__":
    main()
