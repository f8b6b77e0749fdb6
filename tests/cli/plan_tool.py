"""Reads murmur plan's SVG and DXF exports back for the CLI tests, each into the same listing:
one line per polyline, "width-W: x,y x,y ..." in world coordinates (y up) to 4 decimals.

  plan_tool.py svg FILE   the SVG's <polyline>s (y = the page height - page y)
  plan_tool.py dxf FILE   the DXF's LWPOLYLINEs, read by ezdxf (a second reader besides the
                          C++ tests' libdxflib), after the line "audit errors N" of ezdxf's audit
"""
import re
import sys


def point(x, y):
    return "%.4f,%.4f" % (x, y)


def svg(path):
    text = open(path).read()
    height = float(re.search(r'<svg [^>]*height="([^"]+)"', text).group(1))
    lines = []
    for width, points in re.findall(r'<polyline stroke-width="([^"]+)" points="([^"]*)"/>', text):
        pairs = [p.split(",") for p in points.split()]
        lines.append("width-%s: %s" % (width, " ".join(point(float(x), height - float(y))
                                                      for x, y in pairs)))
    return "\n".join(lines)


def dxf(path):
    import ezdxf
    document = ezdxf.readfile(path)
    auditor = document.audit()
    lines = ["audit errors %d" % len(auditor.errors)]
    for entity in document.modelspace():
        if entity.dxftype() != "LWPOLYLINE":
            sys.exit("unexpected entity " + entity.dxftype())
        lines.append("%s: %s" % (entity.dxf.layer,
                                 " ".join(point(x, y) for x, y in entity.get_points("xy"))))
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("svg", "dxf"):
        sys.exit("usage: plan_tool.py svg|dxf FILE")
    print(svg(sys.argv[2]) if sys.argv[1] == "svg" else dxf(sys.argv[2]))
