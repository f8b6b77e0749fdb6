"""PNG checks for the CLI tests, with Python's zlib only (8-bit RGBA, as murmur writes).

  png_tool.py colours FILE                  "several" when the pixels are not all one value
  png_tool.py lit FILE X0 Y0 X1 Y1 LEVEL    pixels in [X0, X1) x [Y0, Y1) (from the top left)
                                            with a channel above LEVEL
  png_tool.py palette FILE                  "WIDTHxHEIGHT", then each colour "r,g,b,a count",
                                            one a line, in byte order
  png_tool.py dark FILE LEVEL [X0 Y0 X1 Y1] pixels whose channels are all below LEVEL (ink), in
                                            [X0, X1) x [Y0, Y1) (from the top left) if given
  png_tool.py extent FILE LEVEL            "X0 Y0 X1 Y1": the box [X0, X1) x [Y0, Y1) (from the
                                            top left) of the rows and the columns more than half
                                            of whose pixels have a channel above LEVEL (a lit
                                            rectangle, not the few pixels of a mark past its
                                            edge), or "none"
  png_tool.py contrast FILE                 how a frame reads (docs/rendering.md, "Dense
                                            flocks"): luminance percentiles, the dark and the
                                            saturated fractions, sky and flock levels
"""
import struct
import sys
import zlib


def size(path):
    """The image's width and height, from its IHDR chunk."""
    return struct.unpack(">II", open(path, "rb").read()[16:24])


def rows(path):
    """Yields the image's rows, top first, each a bytearray of RGBA."""
    data = open(path, "rb").read()
    pos, chunks = 8, b""
    width = height = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type == 6, "expected 8-bit RGBA"
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    raw = zlib.decompress(chunks)
    stride = width * 4
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = previous[i]
            c = previous[i - 4] if i >= 4 else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        yield line
        previous = line


def colours(path):
    first = None
    for line in rows(path):
        first = first or bytes(line[:4])
        if line != first * (len(line) // 4):
            return "several"
    return "one"


def lit(path, x0, y0, x1, y1, level):
    count = 0
    for y, line in enumerate(rows(path)):
        if y0 <= y < y1:
            for x in range(x0, min(x1, len(line) // 4)):
                if max(line[4 * x:4 * x + 3]) > level:
                    count += 1
    return count


def dark(path, level, x0=0, y0=0, x1=None, y1=None):
    count = 0
    for y, line in enumerate(rows(path)):
        if y < y0 or (y1 is not None and y >= y1):
            continue
        end = len(line) // 4 if x1 is None else min(x1, len(line) // 4)
        for x in range(x0, end):
            if max(line[4 * x:4 * x + 3]) < level:
                count += 1
    return count


def extent(path, level):
    width, height = size(path)
    lit_in_column = [0] * width
    lit_rows = []
    for y, line in enumerate(rows(path)):
        lit_here = 0
        for x in range(width):
            if max(line[4 * x:4 * x + 3]) > level:
                lit_in_column[x] += 1
                lit_here += 1
        if 2 * lit_here > width:
            lit_rows.append(y)
    lit_columns = [x for x in range(width) if 2 * lit_in_column[x] > height]
    if not lit_rows or not lit_columns:
        return "none"
    return "%d %d %d %d" % (lit_columns[0], lit_rows[0], lit_columns[-1] + 1, lit_rows[-1] + 1)


def palette(path):
    counts = {}
    for line in rows(path):
        for x in range(0, len(line), 4):
            colour = bytes(line[x:x + 4])
            counts[colour] = counts.get(colour, 0) + 1
    width, height = size(path)
    return "%dx%d\n" % (width, height) + "\n".join(
        "%s %d" % (",".join(map(str, colour)), counts[colour]) for colour in sorted(counts))
# Luminance of an 8-bit sRGB pixel, 0..255, with Rec. 709 weights (on the encoded values: a
# measure of how light the picture looks, not of light).
LUMA_WEIGHTS = (0.2126, 0.7152, 0.0722)
DARK_LEVEL = 40        # a pixel darker than this reads as night sky
SATURATED_LEVEL = 250  # a channel this high is burnt: detail there is lost
SKY_FRACTION = 0.25    # the darkest quarter of the pixels stands for the empty sky ...
FLOCK_FRACTION = 0.05  # ... and the brightest twentieth for the flocks' cores


def contrast(path):
    """Returns a dict of the frame's luminance statistics (docs/rendering.md)."""
    lumas, saturated = [], 0
    for line in rows(path):
        for i in range(0, len(line), 4):
            r, g, b = line[i], line[i + 1], line[i + 2]
            lumas.append(LUMA_WEIGHTS[0] * r + LUMA_WEIGHTS[1] * g + LUMA_WEIGHTS[2] * b)
            if max(r, g, b) >= SATURATED_LEVEL:
                saturated += 1
    count = len(lumas)
    lumas.sort()
    at = lambda fraction: lumas[min(count - 1, int(fraction * count))]
    sky = lumas[:max(1, int(SKY_FRACTION * count))]
    flock = lumas[count - max(1, int(FLOCK_FRACTION * count)):]
    sky_level, flock_level = sum(sky) / len(sky), sum(flock) / len(flock)
    return {
        "mean": sum(lumas) / count, "p10": at(0.10), "p50": at(0.50), "p90": at(0.90),
        "p99": at(0.99), "dark_fraction": sum(1 for v in lumas if v < DARK_LEVEL) / count,
        "saturated_fraction": saturated / count, "sky": sky_level, "flock": flock_level,
        "contrast": flock_level - sky_level,
    }


if __name__ == "__main__":
    if sys.argv[1] == "colours":
        print(colours(sys.argv[2]))
    elif sys.argv[1] == "lit":
        print(lit(sys.argv[2], *map(int, sys.argv[3:8])))
    elif sys.argv[1] == "dark":
        print(dark(sys.argv[2], *map(int, sys.argv[3:8])))
    elif sys.argv[1] == "extent":
        print(extent(sys.argv[2], int(sys.argv[3])))
    elif sys.argv[1] == "palette":
        print(palette(sys.argv[2]))
    elif sys.argv[1] == "contrast":
        print(" ".join(f"{key}={value:.3f}" for key, value in contrast(sys.argv[2]).items()))
    else:
        sys.exit("usage: png_tool.py colours FILE | lit FILE X0 Y0 X1 Y1 LEVEL | dark FILE LEVEL | "
                 "extent FILE LEVEL | palette FILE | contrast FILE")
