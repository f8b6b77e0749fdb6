"""docs/python.md shows the Vicsek study as docs/examples/vicsek_noise.py runs it: the page's
block is the file's code (less its docstring), so neither drifts from the other."""

import re

from conftest import SOURCE_DIR


def test_the_pages_vicsek_study_is_the_example_file():
    page = (SOURCE_DIR / "docs" / "python.md").read_text()
    section = page[page.index("### A Vicsek noise study"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    source = (SOURCE_DIR / "docs" / "examples" / "vicsek_noise.py").read_text()
    code = source[source.index('"""', 3) + 3:].lstrip("\n")
    # The example prints its table as well; the page leaves that line out.
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("print(")) + "\n"
    assert block == code
