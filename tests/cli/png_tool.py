"""PNG checks for the CLI tests, with Python's zlib only (8-bit RGBA, as murmur writes).

  png_tool.py colours FILE                  "several" when the pixels are not all one value
  png_tool.py lit FILE X0 Y0 X1 Y1 LEVEL    pixels in [X0, X1) x [Y0, Y1) (from the top left)
                                            with a channel above LEVEL
  png_tool.py palette FILE                  "WIDTHxHEIGHT", then each colour "r,g,b,a count",
                                            one a line, in byte order
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


def palette(path):
    counts = {}
    for line in rows(path):
        for x in range(0, len(line), 4):
            colour = bytes(line[x:x + 4])
            counts[colour] = counts.get(colour, 0) + 1
    width, height = size(path)
    return "%dx%d\n" % (width, height) + "\n".join(
        "%s %d" % (",".join(map(str, colour)), counts[colour]) for colour in sorted(counts))


if __name__ == "__main__":
    if sys.argv[1] == "colours":
        print(colours(sys.argv[2]))
    elif sys.argv[1] == "lit":
        print(lit(sys.argv[2], *map(int, sys.argv[3:8])))
    elif sys.argv[1] == "palette":
        print(palette(sys.argv[2]))
    else:
        sys.exit("usage: png_tool.py colours FILE | lit FILE X0 Y0 X1 Y1 LEVEL | palette FILE")
