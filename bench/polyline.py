"""Google's encoded polyline, as OSRM (polyline6), Valhalla (shape) and Tern's events (shape) write it,
and the few plane measures the road drive set needs along a decoded line."""
import bisect
import math


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


def xy(p, lat0):
    k = math.cos(math.radians(lat0))
    return (math.radians(p[1]) * k * 6371008.8, math.radians(p[0]) * 6371008.8)


def along(shape):
    cum = [0.0]
    for p, q in zip(shape, shape[1:]):
        lat0 = p[0]
        (ax, ay), (bx, by) = xy(p, lat0), xy(q, lat0)
        cum.append(cum[-1] + math.hypot(bx - ax, by - ay))
    return cum


def point_at(shape, cum, s):
    i = max(0, min(len(shape) - 2, bisect.bisect_right(cum, s) - 1))
    seg = cum[i + 1] - cum[i]
    f = 0 if seg == 0 else (s - cum[i]) / seg
    return [shape[i][0] + f * (shape[i + 1][0] - shape[i][0]), shape[i][1] + f * (shape[i + 1][1] - shape[i][1])], i


def vias_along(shape, cum, start, end, step=250):
    out, s = [], start + step
    while s < end - 100:
        out.append(point_at(shape, cum, s)[0])
        s += step
    return out
