"""An independent reader for fluidcast's PLY frames, written from the PLY format alone (stdlib only)."""
import struct

# The exact vertex layout fluidcast promises, in file order.
EXPECTED_PROPERTIES = [
    ("uint", "id"),
    ("float", "x"), ("float", "y"), ("float", "z"),
    ("float", "vx"), ("float", "vy"), ("float", "vz"),
    ("float", "density"),
    ("uchar", "fluid"),
    ("float", "temperature"),
    ("uchar", "flags"),
    ("uchar", "submerged"),
]
RECORD = struct.Struct("<I7fBfBB")
END_HEADER = b"end_header\n"


class PlyError(Exception):
    pass


def _parse_header(path, lines):
    """Checks the header lines (before end_header); returns (vertex count, time or None)."""
    if lines[:2] != ["ply", "format binary_little_endian 1.0"]:
        raise PlyError(f"{path}: expected 'ply' and 'format binary_little_endian 1.0', got {lines[:2]}")
    count, time, properties = None, None, []
    for line in lines[2:]:
        words = line.split()
        if words[:2] == ["comment", "time"] and len(words) == 3:
            time = float(words[2])
        elif words[:1] == ["comment"]:
            continue
        elif words[:2] == ["element", "vertex"] and len(words) == 3 and count is None:
            count = int(words[2])
        elif words[:1] == ["property"] and len(words) == 3 and count is not None:
            properties.append((words[1], words[2]))
        else:
            raise PlyError(f"{path}: unexpected header line '{line}'")
    if count is None:
        raise PlyError(f"{path}: no 'element vertex N' line")
    if properties != EXPECTED_PROPERTIES:
        raise PlyError(f"{path}: properties {properties}, expected {EXPECTED_PROPERTIES}")
    return count, time


def read_ply(path):
    """Returns {"count", "time", "records"}: records are (id, x, y, z, vx, vy, vz, density, fluid, temperature) tuples."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(END_HEADER)
    if end < 0:
        raise PlyError(f"{path}: no end_header line")
    try:
        lines = data[:end].decode("ascii").split("\n")[:-1]
    except UnicodeDecodeError as e:
        raise PlyError(f"{path}: header is not ASCII: {e}") from None
    count, time = _parse_header(path, lines)
    body = data[end + len(END_HEADER):]
    if len(body) != count * RECORD.size:
        raise PlyError(f"{path}: {len(body)} bytes of vertex data, expected {count} x {RECORD.size}")
    return {"count": count, "time": time, "records": list(RECORD.iter_unpack(body))}
