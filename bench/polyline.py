"""Google's encoded polyline, as OSRM (polyline6), Valhalla (shape) and Tern's events (shape) write it."""


def decode(poly, precision=6):
    """[[lat, lon], ...] from an encoded polyline."""
    coords, index, lat, lon, factor = [], 0, 0, 0, 10 ** precision
    while index < len(poly):
        for which in (0, 1):
            shift, result = 0, 0
            while True:
                b = ord(poly[index]) - 63
                index += 1
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20:
                    break
            delta = ~(result >> 1) if result & 1 else result >> 1
            if which == 0:
                lat += delta
            else:
                lon += delta
        coords.append([lat / factor, lon / factor])
    return coords
