"""Image → figure coverage → preset weight matrix.

The picture decides which grid cells may hold maze:

1. **Figure.** Where the image has an alpha channel that cuts out a shape (at
   least half a percent of the pixels more transparent than opaque), alpha is
   the figure (soft: a half-transparent pixel is half figure). Otherwise
   the luminance is split at a threshold (Otsu's unless given) and the figure
   is the tone that touches the image border *least*: the ground is what
   surrounds the picture, whether it is light paper or a dark backdrop.
   ``invert=True`` swaps figure and ground.
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

import os
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from mazeart._io import open_image
from mazeart._limits import check_cells, current
from mazeart.errors import MazeartError, check_int, check_number
from mazeart.weights import FORBIDDEN, FREE

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "colour_regions",
    "figure_coverage",
    "is_photograph",
    "open_image",
    "otsu_threshold",
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
    # The ground is the tone that surrounds the picture: the one most present on its border.
    dark_on_border = float(_border(dark).mean())
    figure = ~dark if dark_on_border > 0.5 else dark
    if invert:
        figure = ~figure
    return figure.astype(np.float32)


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
    cov = resample_coverage(figure_coverage(img, threshold=threshold, invert=invert), cells)
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

    A cut-out (alpha decides the figure) is never one. Otherwise the picture's
    colours are counted on a coarse palette (5 bits a channel): a drawing, even
    anti-aliased, has 95 % of its pixels in a few dozen colours; a photograph
    needs hundreds.

    Parameters
    ----------
    image : PIL.Image.Image

    Returns
    -------
    bool
    """
    if _has_alpha(image):
        alpha = np.asarray(image.convert("RGBA").getchannel("A"))
        if np.mean(alpha < 128) >= _ALPHA_MIN_SHARE:
            return False
    small = image.convert("RGB")
    if small.width * small.height > 250_000:  # a sample is enough
        factor = max(1, int(np.sqrt(small.width * small.height / 250_000)))
        small = small.reduce(factor)
    px = np.asarray(small, dtype=np.uint8).reshape(-1, 3)
    if np.array_equal(px[:, 0], px[:, 1]) and np.array_equal(px[:, 1], px[:, 2]):
        codes = px[:, 0].astype(np.int32)  # grey: every level of 256
    else:
        q = (px >> 3).astype(np.int32)
        codes = (q[:, 0] << 10) | (q[:, 1] << 5) | q[:, 2]
    counts = np.sort(np.bincount(codes))[::-1]
    covered = np.searchsorted(np.cumsum(counts), 0.95 * counts.sum()) + 1
    if covered <= 64:
        return False
    # many colours, but a drawing's lie near its two tones (JPEG noise, anti-aliasing)
    lum = np.asarray(small.convert("L"), dtype=np.float64).reshape(-1)
    if lum.max() - lum.min() < 1:
        return False
    t = otsu_threshold(lum)
    dark = lum <= t
    means = np.where(
        dark, lum[dark].mean() if dark.any() else 0, lum[~dark].mean() if (~dark).any() else 0
    )
    return bool(np.mean(np.abs(lum - means) > 25) > 0.2)


_SRGB_TO_XYZ = np.array(
    [[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169], [0.019334, 0.119193, 0.950227]]
)
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def srgb_to_lab(rgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """CIE L*a*b* (D65 white) of sRGB colours in ``[0, 1]``, last axis the channels.

    >>> white, black = srgb_to_lab(np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]))
    >>> round(float(white[0]), 6), float(black[0]), bool(np.allclose(white[1:], 0, atol=0.01))
    (100.0, 0.0, True)
    """
    rgb = np.asarray(rgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _SRGB_TO_XYZ.T / _WHITE_D65
    edge = (6 / 29) ** 3
    f = np.where(xyz > edge, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    fx, fy, fz = f[..., 0], f[..., 1], f[..., 2]
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], axis=-1)


def _two_means(
    points: NDArray[np.float64], gen: np.random.Generator, *, rounds: int = 20
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """Two k-means clusters (k-means++ start, then Lloyd's rounds): centres and labels."""
    first = points[gen.integers(len(points))]
    far = ((points - first) ** 2).sum(axis=1)
    total = far.sum()
    second = points[gen.choice(len(points), p=far / total)] if total > 0 else first
    centres = np.stack([first, second])
    labels = np.zeros(len(points), dtype=np.intp)
    for _ in range(rounds):
        d = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        for k in (0, 1):
            if np.any(labels == k):
                centres[k] = points[labels == k].mean(axis=0)
    return centres, labels


def colour_regions(image: Image, figure: NDArray[np.bool_], *, rng: int = 0) -> bool:
    """Whether the figure of a picture holds distinct colour regions of real size (a logo's
    design on its background shape), not one colour.

    The figure's pixels are split in two by colour (k-means in CIE Lab): the
    regions count when the two colours differ clearly (more than 25 units of
    Lab distance) and the smaller one covers at least 8 % of the figure.

    Parameters
    ----------
    image : PIL.Image.Image
    figure : (h, w) ndarray of bool
        The picture's figure pixels (``figure_coverage(image) >= 0.5``).

    Returns
    -------
    bool
    """
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0
    pixels = rgb[np.asarray(figure, bool)]
    if len(pixels) < 50:
        return False
    gen = np.random.default_rng(rng)
    sample = pixels[gen.choice(len(pixels), size=min(len(pixels), 20_000), replace=False)]
    centroids, labels = _two_means(srgb_to_lab(sample), gen)
    share = np.bincount(labels, minlength=2) / len(labels)
    distance = float(np.linalg.norm(centroids[0] - centroids[1]))
    return bool(distance > 25.0 and share.min() >= 0.08)
