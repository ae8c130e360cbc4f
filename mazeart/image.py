"""Image → figure coverage → preset weight matrix.

The picture decides which grid cells may hold maze:

1. **Figure.** Where the image has an alpha channel that cuts out a shape (at
   least half a percent of the pixels more transparent than opaque), alpha is
   the figure (soft: a half-transparent pixel is half figure). Otherwise, when
   the picture stands on a flat background (most of its border one colour: the
   paper of a logo or an icon), the figure is every pixel clearly of another
   colour (:func:`palette`), so a light part of a design (a gold ribbon, a pale
   heart) is figure as much as a dark one. Otherwise the luminance is split at
   a threshold (Otsu's unless given) and the figure is the tone that touches
   the image border *least*: the ground is what surrounds the picture, whether
   it is light paper or a dark backdrop; a photograph's figure is its dark tone
   (read as a silhouette, it draws its dark parts: a positive, not a negative).
   A threshold given always splits the luminance. ``invert=True`` swaps figure
   and ground.
2. **Coverage.** The figure is averaged over each cell's exact pixel area (a box
   filter with fractional edges), giving each cell the share of its area that is
   figure. Unlike nearest-pixel sampling, thin strokes and small islands keep
   their true weight.
3. **Weights.** A cell is :data:`~mazeart.weights.FREE` when its coverage is at
   least ``coverage`` (one half by default), else
   :data:`~mazeart.weights.FORBIDDEN`.

Every Pillow mode is accepted: ``1``, ``L``, ``LA``, ``P`` (with or without
transparency), ``RGB``, ``RGBA``, ``CMYK``, ``YCbCr``, ``I``, ``I;16``, ``F`` and
the rest that Pillow can convert.
"""

from __future__ import annotations

import functools
import os
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import open_image
from mazeart._limits import check_cells, current
from mazeart.errors import MazeartError, check_int, check_number
from mazeart.weights import FORBIDDEN, FREE

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "PAINT_MAX_PIXELS",
    "Palette",
    "colour_regions",
    "design_colours",
    "figure_coverage",
    "is_photograph",
    "open_image",
    "otsu_threshold",
    "paint_image",
    "paint_layer",
    "palette",
    "resample_coverage",
    "weights_from_image",
]

_ALPHA_MODES = ("RGBA", "LA", "PA", "RGBa", "La")
_ALPHA_MIN_SHARE = 0.005
"""Alpha decides only when at least this share of pixels is more transparent than opaque.

A few soft corner pixels (common in exported PNGs) do not make a cut-out."""


def _has_alpha(img: Image) -> bool:
    return img.mode in _ALPHA_MODES or (img.mode == "P" and "transparency" in img.info)


def _luminance(img: Image) -> NDArray[np.float32]:
    """Luminance in [0, 1] for any mode, keeping the full depth of 16-bit and float images."""
    mode = img.mode
    if mode == "1":
        return np.asarray(img, dtype=np.float32)
    if mode.startswith("I;16"):
        return np.asarray(img, dtype=np.float32) / 65535.0
    if mode in ("I", "F"):
        arr = np.asarray(img, dtype=np.float64)
        finite = np.isfinite(arr)
        if not finite.any():
            raise MazeartError("the image holds no finite pixel values")
        lo, hi = float(arr[finite].min()), float(arr[finite].max())
        if mode == "I" and lo >= 0 and hi <= 65535:
            lo, hi = 0.0, (255.0 if hi <= 255 else 65535.0)
        span = hi - lo if hi > lo else 1.0
        out = np.where(finite, (arr - lo) / span, 0.0)
        return np.clip(out, 0.0, 1.0).astype(np.float32)
    if mode == "L":
        return np.asarray(img, dtype=np.float32) / 255.0
    if mode == "LAB":
        return np.asarray(img.getchannel("L"), dtype=np.float32) / 255.0
    return np.asarray(img.convert("RGB").convert("L"), dtype=np.float32) / 255.0


def otsu_threshold(values: NDArray[np.floating], *, bins: int = 256) -> float:
    """Otsu's threshold: the split of a 256-bin histogram with the largest between-class variance.

    The same computation as :func:`skimage.filters.threshold_otsu` on float
    input (the tests check that they agree); done here in numpy so that the
    command line does not pay scikit-image's and SciPy's import time for it.

    Parameters
    ----------
    values : ndarray of float
        At least two distinct values.
    bins : int, default 256

    Returns
    -------
    float
        Values ``<=`` the threshold form the darker class.
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    lo, hi = float(v.min()), float(v.max())
    if hi <= lo:
        raise MazeartError("Otsu's threshold needs at least two distinct values")
    hist, edges = np.histogram(v, bins=bins, range=(lo, hi))
    centers = (edges[:-1] + edges[1:]) / 2.0
    hist = hist.astype(np.float64)
    w1 = np.cumsum(hist)
    w2 = np.cumsum(hist[::-1])[::-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        m1 = np.cumsum(hist * centers) / w1
        m2 = (np.cumsum((hist * centers)[::-1]) / w2[::-1])[::-1]
    between = w1[:-1] * w2[1:] * (m1[:-1] - m2[1:]) ** 2
    return float(centers[int(np.nanargmax(between))])


def _border(a: NDArray) -> NDArray:
    return np.concatenate([a[0], a[-1], a[1:-1, 0], a[1:-1, -1]])


def stroke_width(figure: NDArray[np.bool_]) -> float:
    """The width of a figure's strokes in pixels: twice its area over its perimeter (exact
    for long strokes of even width)."""
    area = int(np.count_nonzero(figure))
    edges = int(np.count_nonzero(figure[1:] != figure[:-1]))
    edges += int(np.count_nonzero(figure[:, 1:] != figure[:, :-1]))
    return 2 * area / max(edges, 1)


def cells_for_strokes(cells: int, stroke: float) -> int:
    """The cells across that keep strokes now ``stroke`` cells wide at ``cells`` across (a
    cell and a half across each)."""
    return int(np.ceil(cells * 1.5 / max(stroke, 0.05)))


def figure_coverage(
    image: Image | str | os.PathLike[str],
    *,
    threshold: float | None = None,
    invert: bool = False,
) -> NDArray[np.float32]:
    """How much of each pixel belongs to the figure.

    Parameters
    ----------
    image : PIL.Image.Image or path
        The picture.
    threshold : float, optional
        Luminance threshold on a 0-255 scale (whatever the image's bit depth).
        ``None`` picks Otsu's threshold. Ignored when alpha decides.
    invert : bool, default False
        Swap figure and ground.

    Returns
    -------
    (H, W) ndarray of float32
        Values in [0, 1]: 1 is figure, 0 is ground, fractions from soft alpha.

    Raises
    ------
    ValueError
        If the image has a single tone and no threshold separates it.
    """
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    if _has_alpha(img):
        alpha = np.asarray(img.convert("RGBA").getchannel("A"), dtype=np.float32) / 255.0
        if np.mean(alpha < 0.5) >= _ALPHA_MIN_SHARE:
            return (1.0 - alpha) if invert else alpha
    if threshold is None and img.mode not in ("1", "I", "F") and not img.mode.startswith("I;16"):
        pal = palette(img)
        if pal.background is not None and pal.threshold is not None:
            far = _cached(img, ("away", pal.threshold), lambda: _away(img, pal))
            return (~far if invert else far).astype(np.float32)
    lum = _luminance(img)
    if threshold is None:
        if float(lum.max() - lum.min()) < 1e-6:
            raise MazeartError(
                "the image is a single flat tone: nothing separates figure from ground "
                "(give a threshold)"
            )
        t = otsu_threshold(lum)
    else:
        t = check_number(threshold, "threshold", low=0, high=255) / 255.0
    dark = lum <= t
    if threshold is None and is_photograph(img):
        # a photograph's silhouette is its dark tones: the maze's ink falls where the
        # photograph is dark, a positive of it whatever its border holds
        figure = dark
    else:
        # the ground is the tone that surrounds the picture: the one most on its border
        figure = ~dark if float(_border(dark).mean()) > 0.5 else dark
    if invert:
        figure = ~figure
    return figure.astype(np.float32)


PAINT_AS_PICTURE, PAINT_NO_MAZE, PAINT_MAZE = 0, 1, 2
"""The values of a paint layer: the picture decides, no maze here, maze here."""

PAINT_MAX_PIXELS = 4096 * 4096
"""The largest paint layer read from a design or a page (it is stretched over the picture,
so more pixels than the picture's own would add nothing)."""


def read_paint_png(data: bytes, what: str = "the paint") -> NDArray[np.uint8]:
    """A paint layer from a PNG's bytes (a design's, or a studio page's): its size checked
    before a pixel is decoded.

    Raises
    ------
    MazeartError
        For bytes that are not a PNG, or a layer of more than :data:`PAINT_MAX_PIXELS`.
    """
    import io

    from PIL import Image as PILImage

    try:
        with PILImage.open(io.BytesIO(data), formats=["PNG"]) as img:
            if img.width * img.height > PAINT_MAX_PIXELS:
                raise MazeartError(f"{what} is {img.width} x {img.height} pixels, more than "
                                   f"a paint layer may be ({PAINT_MAX_PIXELS:,})")  # fmt: skip
            img.load()
            return paint_layer(img)
    except PILImage.DecompressionBombError:
        raise MazeartError(f"{what} has more pixels than a paint layer may be "
                           f"({PAINT_MAX_PIXELS:,})") from None  # fmt: skip
    except (OSError, SyntaxError, ValueError) as err:
        if isinstance(err, MazeartError):
            raise
        raise MazeartError(f"{what} is not a PNG picture") from None


_PAINT_RGBA = np.array([[0, 0, 0, 0], [214, 39, 40, 255], [44, 160, 44, 255]], np.uint8)


def paint_layer(paint: Any) -> NDArray[np.uint8]:
    """A paint layer: where a designer overrode the picture, at any resolution (it is
    stretched over the picture, or over the grid without one).

    Parameters
    ----------
    paint : path, PIL.Image.Image or (H, W) array_like of int
        A picture whose opaque red pixels (red above green) mean no maze, whose opaque
        green pixels mean maze, and whose transparent pixels leave it to the picture
        (:func:`paint_image` writes one); or the values :data:`PAINT_AS_PICTURE`,
        :data:`PAINT_NO_MAZE` and :data:`PAINT_MAZE` themselves.

    Returns
    -------
    (H, W) ndarray of uint8

    Raises
    ------
    MazeartError
        For an array holding other values, or with no pixel.

    Examples
    --------
    >>> paint_layer([[0, 1], [2, 0]]).tolist()
    [[0, 1], [2, 0]]
    """
    from PIL import Image as PILImage

    if isinstance(paint, str | os.PathLike):
        paint = open_image(paint)
    if isinstance(paint, PILImage.Image):
        rgba = np.asarray(paint.convert("RGBA"))
        out = np.full(rgba.shape[:2], PAINT_AS_PICTURE, np.uint8)
        opaque = rgba[..., 3] >= 128
        out[opaque] = PAINT_MAZE
        out[opaque & (rgba[..., 0] > rgba[..., 1])] = PAINT_NO_MAZE
        return out
    a = np.asarray(paint)
    if a.ndim != 2 or a.size == 0 or a.dtype.kind not in "iub":
        raise MazeartError(f"a paint layer is a 2-D array of 0, 1 and 2, got shape {a.shape}")
    if a.size and (a.min() < 0 or a.max() > 2):
        raise MazeartError("a paint layer holds 0 (the picture), 1 (no maze) and 2 (maze) only")
    return a.astype(np.uint8)


def paint_image(layer: ArrayLike) -> Image:
    """A paint layer as an RGBA picture that :func:`paint_layer` reads back: transparent
    where the picture decides, red where no maze goes, green where maze does."""
    from PIL import Image as PILImage

    return PILImage.fromarray(_PAINT_RGBA[paint_layer(layer)], "RGBA")


def paint_over(cover: NDArray[np.floating], layer: NDArray[np.uint8] | None) -> NDArray[Any]:
    """``cover`` (a share of figure per pixel, or a value per cell) with the paint layer
    stretched over it (nearest pixel) laid on top: 0 where it says no maze, 1 where maze."""
    if layer is None or not (layer != PAINT_AS_PICTURE).any():
        return cover
    h, w = cover.shape
    rows = np.minimum((np.arange(h) + 0.5) * layer.shape[0] / h, layer.shape[0] - 1).astype(int)
    cols = np.minimum((np.arange(w) + 0.5) * layer.shape[1] / w, layer.shape[1] - 1).astype(int)
    over = layer[np.ix_(rows, cols)]
    out = np.array(cover, dtype=np.float32)
    out[over == PAINT_NO_MAZE] = 0.0
    out[over == PAINT_MAZE] = 1.0
    return out


def resample_coverage(coverage: NDArray[np.floating], cells: int) -> NDArray[np.float32]:
    """Average pixel coverage over a grid ``cells`` wide, keeping the aspect ratio.

    Each cell receives the mean of the pixels under its exact (fractional) area.

    Parameters
    ----------
    coverage : (H, W) ndarray of float
        Per-pixel figure share in [0, 1].
    cells : int
        Number of grid columns.

    Returns
    -------
    (rows, cells) ndarray of float32
        ``rows = max(1, round(cells * H / W))``.
    """
    from PIL import Image

    cells = check_int(cells, "cells", maximum=current().max_cells)
    h, w = coverage.shape
    rows = max(1, round(int(cells) * h / w))
    check_cells(rows, cells, "the grid")
    src = Image.fromarray(np.ascontiguousarray(coverage, dtype=np.float32))
    out = src.resize((int(cells), rows), resample=Image.Resampling.BOX)
    return np.clip(np.asarray(out, dtype=np.float32), 0.0, 1.0)


def weights_from_image(
    image: Image | str | os.PathLike[str],
    *,
    cells: int = 80,
    threshold: float | None = None,
    invert: bool = False,
    coverage: float = 0.5,
    colour_rooms: bool = False,
    paint: ArrayLike | None = None,
) -> NDArray[np.int32]:
    """Turn a picture into a preset weight matrix.

    Parameters
    ----------
    image : PIL.Image.Image or path
        Any image Pillow reads.
    cells : int, default 80
        Grid columns; rows follow the image's aspect ratio.
    threshold : float, optional
        Luminance threshold (0-255); Otsu's when omitted.
    invert : bool, default False
        Swap figure and ground.
    coverage : float, default 0.5
        Minimum share of a cell's area that must be figure for the cell to be free.
    colour_rooms : bool, default False
        Read the picture's colour key: pure red regions become rooms, pure blue
        marks on their edges doors (see :mod:`mazeart.rooms`).
    paint : path, PIL.Image.Image or array_like, optional
        A paint layer over the picture (:func:`paint_layer`): where it says no maze or
        maze, it wins over the picture.

    Returns
    -------
    (rows, cells) ndarray of int32
        :data:`~mazeart.weights.FREE` where the figure covers the cell,
        :data:`~mazeart.weights.FORBIDDEN` elsewhere.

    Examples
    --------
    >>> from skimage import data
    >>> from PIL import Image
    >>> w = weights_from_image(Image.fromarray(data.horse()), cells=40)
    >>> w.shape, bool((w == 0).any())
    ((33, 40), True)
    """
    check_number(coverage, "coverage", low=0, high=1, low_open=True)
    cells = check_int(cells, "cells", maximum=current().max_cells)
    img = image if not isinstance(image, str | os.PathLike) else open_image(image, grid=cells)
    layer = None if paint is None else paint_layer(paint)
    cover = paint_over(figure_coverage(img, threshold=threshold, invert=invert), layer)
    cov = resample_coverage(cover, cells)
    # A hair of tolerance so that a cell exactly half covered counts at coverage=0.5
    # despite float rounding in the box filter.
    free = cov >= float(coverage) - 1e-6
    weights = np.where(free, FREE, FORBIDDEN).astype(np.int32)
    if colour_rooms:
        from mazeart.rooms import colour_rooms as find_rooms

        rgb = np.asarray(img.convert("RGB"))
        weights = find_rooms(rgb, lambda m: resample_coverage(m, cells), weights)
    return weights


def is_photograph(image: Image) -> bool:
    """Whether a picture is continuous-tone (a photograph), not a drawing of a few flat colours.

    A cut-out (alpha decides the figure) is never one. Otherwise what counts is
    how much of the picture is *flat fill*: pixels whose 3 x 3 neighbourhood
    varies by at most :data:`FLAT_TOLERANCE` levels and whose colour (5 bits a
    channel) is one of the 8 most common among such pixels. A logo, an icon or
    a silhouette, anti-aliased or saved as JPEG, is nearly all flat fill (0.8 to
    1.0); a photograph is not, whether it is colourful, grey, dim or of low
    contrast (0.0 to 0.45 for most; a subject on a plain studio background can
    reach more, and is then read by its silhouette, which shows it as well). A
    picture whose flat fill is under :data:`PHOTO_FILL` is a photograph, unless
    nearly all of it lies at two tones at least half the range apart (a noisy
    scan of a drawing).

    Parameters
    ----------
    image : PIL.Image.Image

    Returns
    -------
    bool
    """
    return bool(
        _cached(
            image, "photograph", lambda: flat_fill(image) < PHOTO_FILL and not _two_tones(image)
        )
    )


def _two_tones(image: Image) -> bool:
    """Nine pixels in ten within a tenth of the contrast of two tones at least half the
    range apart: a drawing, however noisy its scan (salt and pepper, a harsh JPEG)."""
    lum = np.asarray(_sample(image).convert("L"), dtype=np.float64).reshape(-1)
    if lum.max() - lum.min() < 128:
        return False
    dark = lum <= otsu_threshold(lum)
    low, high = lum[dark].mean(), lum[~dark].mean()
    contrast = high - low
    near = np.abs(lum - np.where(dark, low, high)) <= 0.1 * contrast
    return bool(contrast >= 128 and np.mean(near) >= 0.9)


FLAT_TOLERANCE = 4
"""Levels (of 255) a flat fill's 3 x 3 neighbourhood may vary by: JPEG's noise in a flat area."""
PHOTO_FILL = 0.5
"""Below this share of flat fill (:func:`flat_fill`) a picture is a photograph."""


def flat_fill(image: Image) -> float:
    """The share of a picture that is flat fill of its 8 commonest flat colours (see
    :func:`is_photograph`); 0.0 for a cut-out's transparent part, which is not looked at.

    >>> from PIL import Image, ImageDraw
    >>> logo = Image.new("RGB", (200, 200), "white")
    >>> ImageDraw.Draw(logo).ellipse((20, 20, 180, 180), fill="#c0392b")
    >>> round(flat_fill(logo), 2)
    0.97
    >>> import numpy as np
    >>> noise = np.random.default_rng(0).integers(0, 256, (200, 200), dtype=np.uint8)
    >>> flat_fill(Image.fromarray(noise))
    0.0
    """
    from scipy import ndimage

    if _has_alpha(image):
        alpha = np.asarray(image.convert("RGBA").getchannel("A"))
        if np.mean(alpha < 128) >= _ALPHA_MIN_SHARE:
            return 1.0  # a cut-out: the figure is its alpha, whatever it shows
    small = _sample(image.convert("RGB"))
    lum = np.asarray(small.convert("L"), dtype=np.int16)
    spread = ndimage.maximum_filter(lum, 3) - ndimage.minimum_filter(lum, 3)
    flat = spread <= FLAT_TOLERANCE
    if not flat.any():
        return 0.0
    q = np.asarray(small, dtype=np.uint8)[flat].astype(np.int32) >> 3
    codes = (q[:, 0] << 10) | (q[:, 1] << 5) | q[:, 2]
    counts = np.sort(np.bincount(codes))[::-1]
    return float(counts[:8].sum() / lum.size)


_SRGB_TO_XYZ = np.array(
    [[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169], [0.019334, 0.119193, 0.950227]]
)
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def _linear(rgb: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


_LINEAR_BYTES = _linear(np.arange(256) / 255.0)
"""Each byte's linear light: the same numbers as :func:`_linear` on ``byte / 255``."""


def srgb_to_lab(rgb: NDArray[np.float64] | NDArray[np.uint8]) -> NDArray[np.float64]:
    """CIE L*a*b* (D65 white) of sRGB colours, last axis the channels.

    Parameters
    ----------
    rgb : (..., 3) array_like
        Floats in ``[0, 1]``, or bytes (``uint8``, 0 to 255: read through a table, the
        same numbers as the bytes over 255 and several times faster).

    Returns
    -------
    (..., 3) ndarray of float64

    Examples
    --------
    >>> white, black = srgb_to_lab(np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]))
    >>> round(float(white[0]), 6), float(black[0]), bool(np.allclose(white[1:], 0, atol=0.01))
    (100.0, 0.0, True)
    >>> bool(np.array_equal(srgb_to_lab(np.array([[255, 128, 0]], np.uint8)),
    ...                     srgb_to_lab(np.array([[255, 128, 0]]) / 255.0)))
    True
    """
    values = np.asarray(rgb)
    if values.dtype == np.uint8:
        linear = _LINEAR_BYTES[values]
    else:
        linear = _linear(values.astype(np.float64, copy=False))
    xyz = linear @ _SRGB_TO_XYZ.T
    xyz /= _WHITE_D65
    f = np.cbrt(xyz)
    low = xyz <= (6 / 29) ** 3
    f[low] = xyz[low] / (3 * (6 / 29) ** 2) + 4 / 29
    out = np.empty_like(f)
    out[..., 0] = 116 * f[..., 1] - 16
    out[..., 1] = 500 * (f[..., 0] - f[..., 1])
    out[..., 2] = 200 * (f[..., 1] - f[..., 2])
    return out


def colour_regions(image: Image, figure: NDArray[np.bool_]) -> bool:
    """Whether the figure of a picture holds distinct colour regions of real size (a logo's
    design on its background shape), not one colour: :func:`design_colours` finds two
    or more.

    Parameters
    ----------
    image : PIL.Image.Image
    figure : (h, w) ndarray of bool
        The picture's figure pixels (``figure_coverage(image) >= 0.5``).

    Returns
    -------
    bool
    """
    return len(design_colours(image, figure)) >= 2


@dataclass(frozen=True)
class Palette:
    """The flat colours of a drawing (see :func:`palette`).

    Attributes
    ----------
    background : (3,) ndarray of float, or None
        The background's colour in CIE Lab, when most of the picture's border
        is one colour.
    colours : (K, 3) ndarray of float
        The other flat colours in CIE Lab, most common first.
    shares : (K,) ndarray of float
        Each colour's share of the flat pixels that are not background.
    threshold : float or None
        How far (Lab distance) from the background a pixel is figure: half the
        distance to the nearest colour of the figure, so an anti-aliased edge
        splits where it is half one and half the other.
    """

    background: NDArray[np.float64] | None
    colours: NDArray[np.float64]
    shares: NDArray[np.float64]
    threshold: float | None


_CACHE: dict[tuple[int, Any], tuple[Any, Any]] = {}
"""What several steps read of a living picture (its palette, its sample in Lab, its pixels
far from the background), by the picture's id and the question: computed once."""


def _forget(cache: dict[tuple[int, Any], Any], key: tuple[int, Any], _: object) -> None:
    cache.pop(key, None)


def _cached(image: Image, what: Any, compute: Any) -> Any:
    key = (id(image), what)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is image:
        return hit[1]
    value = compute()
    # the cache is bound here: a picture freed as the interpreter shuts down finds it still
    forget = functools.partial(_forget, _CACHE, key)
    _CACHE[key] = (weakref.ref(image, forget), value)
    return value


def _away(image: Image, pal: Palette) -> NDArray[np.bool_]:
    """Pixels farther than the palette's threshold from its background (in CIE Lab), read a
    band of rows at a time so that a large picture costs no more than a few of its bytes."""
    background = np.asarray(pal.background, dtype=np.float64)
    limit = np.inf if pal.threshold is None else float(pal.threshold)
    if image.mode == "L":  # a grey picture: 256 distances, one a grey
        return (_distance(_grey_lab(), background) > limit)[np.asarray(image)]
    rgb = image.convert("RGB")
    out = np.zeros((rgb.height, rgb.width), bool)
    step = max(1, 1_000_000 // max(1, rgb.width))
    arr = np.asarray(rgb)
    for top in range(0, rgb.height, step):
        part = srgb_to_lab(arr[top : top + step])
        out[top : top + step] = _distance(part, background) > limit
    return out


def _distance(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """The distance between colours ``a`` and ``b`` (last axis the three channels): the
    numbers of ``np.linalg.norm(a - b, axis=-1)`` (its sum in the same order), at twice
    its speed on a picture's pixels."""
    d = a - b
    d *= d
    return np.sqrt(d[..., 0] + d[..., 1] + d[..., 2])


@functools.cache
def _grey_lab() -> NDArray[np.float64]:
    """The CIE Lab colour of each of the 256 greys."""
    return srgb_to_lab(np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1))


def _sample_lab(image: Image) -> NDArray[np.float64]:
    """The picture reduced to about 250,000 pixels, in CIE Lab."""
    small = _sample(image)
    if small.mode == "L":
        return _grey_lab()[np.asarray(small)]
    return srgb_to_lab(np.asarray(small, dtype=np.uint8))


_FLAT = 4.0
"""Lab distance under which a pixel's right and lower neighbours count as the same colour."""
_SAME = 10.0
"""Lab distance from the background under which a flat pixel is the background's."""


def _sample(image: Image, budget: int = 250_000) -> Image:
    """The picture reduced to about ``budget`` pixels: grey (``L``) as it is, else RGB."""
    small = image if image.mode == "L" else image.convert("RGB")
    if small.width * small.height > budget:
        factor = max(1, int(np.ceil(np.sqrt(small.width * small.height / budget))))
        small = small.reduce(factor)
    return small


def _groups(occupied: NDArray[np.bool_], dims: tuple[int, int, int]) -> NDArray[np.int64]:
    """The connected groups (26 neighbours) of the occupied cells of a small 3-D histogram,
    numbered from 1 (0 where empty): a walk over the few occupied cells, no image library."""
    labels = np.zeros(occupied.size, np.int64)
    cells = set(np.flatnonzero(occupied).tolist())
    steps = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    stride = (dims[1] * dims[2], dims[2], 1)
    group = 0
    for first in sorted(cells):
        if labels[first]:
            continue
        group += 1
        labels[first] = group
        todo = [first]
        while todo:
            cell = todo.pop()
            i, rest = divmod(cell, stride[0])
            j, k = divmod(rest, stride[1])
            for a, b, c in steps:
                ii, jj, kk = i + a, j + b, k + c
                if 0 <= ii < dims[0] and 0 <= jj < dims[1] and 0 <= kk < dims[2]:
                    nxt = ii * stride[0] + jj * stride[1] + kk
                    if nxt in cells and not labels[nxt]:
                        labels[nxt] = group
                        todo.append(nxt)
    return labels


def _flat_colours(lab: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Distinct colours of ``lab`` ``(N, 3)`` pixels, most common first: their centres and
    pixel counts. A colour is a connected group of occupied cells of a 4-unit Lab histogram
    (a few pixels do not occupy a cell): a flat colour with its noise, or a gradient or
    shading, is one group; two flat colours, however close, are two when no flat pixel lies
    between them."""
    if not len(lab):
        return np.zeros((0, 3)), np.zeros(0)
    lo = np.array([0.0, -128.0, -128.0])
    q = np.clip(np.floor((lab - lo) / 4.0).astype(np.int64), 0, [25, 63, 63])
    dims = (26, 64, 64)
    flat_index = np.ravel_multi_index((q[:, 0], q[:, 1], q[:, 2]), dims)
    counts = np.bincount(flat_index, minlength=26 * 64 * 64)
    labels = _groups(counts >= max(3, len(lab) // 5000), dims)
    n = int(labels.max())
    if n == 0:
        return np.zeros((0, 3)), np.zeros(0)
    group = labels[flat_index]
    keep = group > 0
    total = np.bincount(group[keep], minlength=n + 1)[1:].astype(np.float64)
    sums = np.stack([np.bincount(group[keep], weights=lab[keep, k], minlength=n + 1)[1:]
                     for k in range(3)], axis=1)  # fmt: skip
    order = np.argsort(-total, kind="stable")
    return (sums / np.maximum(total, 1)[:, None])[order], total[order]


def palette(image: Image) -> Palette:
    """The picture's background and the flat colours of its figure.

    The picture (reduced to about 250,000 pixels) is read in CIE Lab. Its
    background is the colour of at least 60 % of its border, within a Lab
    distance of 6. Its flat colours are those of pixels whose right and lower
    neighbours are within 4 of them (no anti-aliased edge, no photograph's
    texture), grouped within 10; each kept colour covers at least 1 % of the
    flat pixels that are not background.

    Parameters
    ----------
    image : PIL.Image.Image

    Returns
    -------
    Palette

    Examples
    --------
    >>> from PIL import Image, ImageDraw
    >>> img = Image.new("RGB", (100, 100), "white")
    >>> ImageDraw.Draw(img).rectangle((20, 20, 80, 80), fill="gold")
    >>> pal = palette(img)
    >>> round(float(pal.background[0])), len(pal.colours), pal.threshold > 6
    (100, 1, True)
    """
    return _cached(image, "palette", lambda: _palette(image))  # type: ignore[no-any-return]


def _palette(image: Image) -> Palette:
    lab = _cached(image, "lab", lambda: _sample_lab(image))
    h, w = lab.shape[:2]
    frame = (lab[:2], lab[-2:], lab[2:-2, :2], lab[2:-2, -2:])
    border = np.concatenate([part.reshape(-1, 3) for part in frame])
    background = None
    if len(border):
        centre = np.median(border, axis=0)
        near = _distance(border, centre) < 6.0
        if near.mean() >= 0.6:
            background = border[near].mean(axis=0)
    flat = np.ones((h, w), bool)
    if w > 1:
        step = _distance(lab[:, 1:], lab[:, :-1]) < _FLAT
        flat[:, :-1] &= step
        flat[:, 1:] &= step
    if h > 1:
        step = _distance(lab[1:], lab[:-1]) < _FLAT
        flat[:-1] &= step
        flat[1:] &= step
    pixels = lab[flat]
    if background is not None:
        pixels = pixels[_distance(pixels, background) >= _SAME]
    colours, counts = _flat_colours(pixels)
    shares = counts / max(counts.sum(), 1.0)
    keep = shares >= 0.01
    colours, shares = colours[keep], shares[keep]
    threshold = None
    if background is not None and len(colours):
        main = shares >= 0.02
        gap = float(_distance(colours[main], background).min())
        threshold = float(np.clip(gap / 2, 6.0, 50.0))
    return Palette(background, colours, shares, threshold)


def design_colours(image: Image, figure: NDArray[np.bool_]) -> NDArray[np.float64]:
    """The distinct flat colours of the figure, in CIE Lab, most common first.

    A logo's design (a plus on its disc, the letters of a word in two colours)
    is two or more such colours; a silhouette, one. The colours are read as in
    :func:`palette` on the figure's pixels alone; a colour counts when its flat
    pixels cover at least 2 % of the figure's and it stands at least a Lab
    distance of 10 from the others (two blues 21 apart are two colours).

    Parameters
    ----------
    image : PIL.Image.Image
    figure : (h, w) ndarray of bool
        The figure's pixels at the picture's size.

    Returns
    -------
    (K, 3) ndarray of float
    """
    lab = _cached(image, "lab", lambda: _sample_lab(image))
    fig = np.asarray(figure, bool)
    if fig.shape != lab.shape[:2]:  # the figure at the sample's size
        from PIL import Image as PILImage

        size = (lab.shape[1], lab.shape[0])
        fig = np.asarray(PILImage.fromarray(fig.astype(np.uint8) * 255).resize(size)) >= 128
    flat = fig.copy()
    h, w = fig.shape
    if w > 1:
        step = _distance(lab[:, 1:], lab[:, :-1]) < _FLAT
        flat[:, :-1] &= step
        flat[:, 1:] &= step
    if h > 1:
        step = _distance(lab[1:], lab[:-1]) < _FLAT
        flat[:-1] &= step
        flat[1:] &= step
    total = int(np.count_nonzero(fig))
    if total < 50:
        return np.zeros((0, 3))
    colours, counts = _flat_colours(lab[flat])
    return colours[counts >= 0.02 * total]
