"""Image → weights on real pictures that ship with scikit-image.

References are computed independently: scikit-image's own Otsu threshold and
``skimage.measure.block_reduce`` (an exact block mean) for the area coverage.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from conftest import SKIMAGE_DATA
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image
from skimage import data
from skimage.filters import threshold_otsu
from skimage.measure import block_reduce

from mazeart.image import figure_coverage, open_image, otsu_threshold, weights_from_image
from mazeart.weights import FORBIDDEN, FREE


def reference_free(figure: np.ndarray, factor: int, coverage: float = 0.5) -> np.ndarray:
    """Cells free when at least ``coverage`` of their pixels are figure (exact block mean)."""
    h, w = figure.shape
    cropped = figure[: h - h % factor, : w - w % factor].astype(float)
    return block_reduce(cropped, (factor, factor), np.mean) >= coverage - 1e-9


@pytest.mark.parametrize("name", ["camera", "coins", "text", "moon", "page"])
def test_otsu_matches_scikit_image(name):
    img = getattr(data, name)().astype(np.float32) / 255.0
    assert otsu_threshold(img) == pytest.approx(float(threshold_otsu(img)), abs=1e-6)


def test_horse_free_area_matches_block_mean():
    horse = ~data.horse()  # data.horse() is True on the background
    weights = weights_from_image(SKIMAGE_DATA / "horse.png", cells=100)  # 400 px / 4
    assert weights.shape == (82, 100)
    ref = reference_free(horse, 4)
    agree = np.mean((weights == FREE) == ref)
    assert agree >= 0.995, agree  # cells whose block is exactly half figure may differ
    assert abs((weights == FREE).mean() - horse.mean()) < 0.01


def test_logo_free_area_matches_block_mean():
    # The logo is an opaque RGBA picture: luminance decides, and the disk (not the
    # white corners, which touch the border) is the figure.
    rgba = data.logo()
    lum = np.asarray(Image.fromarray(rgba).convert("RGB").convert("L"), float) / 255.0
    figure = lum <= threshold_otsu(lum)
    weights = weights_from_image(SKIMAGE_DATA / "logo.png", cells=100)  # 500 px / 5
    ref = reference_free(figure, 5)
    assert np.mean((weights == FREE) == ref) >= 0.995
    assert weights[50, 50] == FREE and weights[0, 0] == FORBIDDEN


def test_camera_free_area_matches_block_mean():
    camera = data.camera().astype(float) / 255.0
    figure = camera <= threshold_otsu(camera)  # dark coat; the bright sky touches the border
    weights = weights_from_image(SKIMAGE_DATA / "camera.png", cells=128)  # 512 / 4
    ref = reference_free(figure, 4)
    assert np.mean((weights == FREE) == ref) >= 0.995


def test_fractional_cells_keep_the_area():
    horse = ~data.horse()
    for cells in (37, 150, 333):
        weights = weights_from_image(SKIMAGE_DATA / "horse.png", cells=cells)
        assert weights.shape[1] == cells
        assert weights.shape[0] == round(cells * 328 / 400)
        assert abs((weights == FREE).mean() - horse.mean()) < 0.02


def _roundtrip(img: Image.Image) -> Image.Image:
    buf = io.BytesIO()
    fmt = "TIFF" if img.mode in ("I;16", "I", "F", "CMYK") else "PNG"
    img.save(buf, format=fmt)
    buf.seek(0)
    return Image.open(buf)


@pytest.mark.parametrize(
    "mode", ["1", "L", "LA", "P", "RGB", "RGBA", "CMYK", "I;16", "I", "F", "YCbCr"]
)
def test_every_pillow_mode_gives_the_same_figure(mode):
    horse = data.horse()  # True = white background
    grey = Image.fromarray(np.where(horse, 235, 20).astype(np.uint8))
    if mode == "I;16":
        img = Image.fromarray(np.where(horse, 60000, 3000).astype(np.uint16))
    elif mode == "F":
        img = Image.fromarray(np.where(horse, 0.9, 0.1).astype(np.float32))
    elif mode == "1":
        img = grey.convert("1", dither=Image.Dither.NONE)
    else:
        img = grey.convert(mode)
    if mode not in ("YCbCr",):
        img = _roundtrip(img)
    expected = weights_from_image(grey, cells=50)
    got = weights_from_image(img, cells=50)
    assert np.mean(got == expected) >= 0.998, mode


def test_alpha_cut_out_decides():
    # A red disc on a transparent canvas whose hidden colour would fool luminance.
    yy, xx = np.mgrid[:200, :300]
    disc = (yy - 100) ** 2 + (xx - 150) ** 2 < 80**2
    rgba = np.zeros((200, 300, 4), np.uint8)
    rgba[..., 0] = 255
    rgba[..., 3] = np.where(disc, 255, 0)
    img = Image.fromarray(rgba)
    weights = weights_from_image(img, cells=60)
    ref = reference_free(disc, 5)
    assert np.array_equal(weights == FREE, ref)
    inverted = weights_from_image(img, cells=60, invert=True)
    assert np.array_equal(inverted == FREE, ~ref)
    # The same through a palette image with a transparent index.
    pal = Image.fromarray(disc.astype(np.uint8))
    pal = pal.convert("P")
    pal.putpalette([255, 255, 255, 255, 0, 0])
    pal.info["transparency"] = 0
    pal = _roundtrip(pal)
    assert pal.mode == "P" and "transparency" in pal.info
    assert np.mean((weights_from_image(pal, cells=60) == FREE) == ref) > 0.99


def test_soft_corners_do_not_make_a_cut_out():
    # skimage's horse.png has 12 semi-transparent corner pixels and no real cut-out.
    img = open_image(SKIMAGE_DATA / "horse.png")
    assert np.asarray(img)[..., 3].min() < 255
    cov = figure_coverage(img)
    assert 0.25 < cov.mean() < 0.4  # the horse, not the whole opaque canvas


def test_polarity_follows_the_border_and_invert_swaps():
    light_on_dark = Image.fromarray(np.where(data.horse(), 10, 240).astype(np.uint8))
    dark_on_light = Image.fromarray(np.where(data.horse(), 240, 10).astype(np.uint8))
    a = weights_from_image(light_on_dark, cells=40)
    b = weights_from_image(dark_on_light, cells=40)
    assert np.array_equal(a, b)  # the horse either way
    c = weights_from_image(dark_on_light, cells=40, invert=True)
    # Swapped, except cells exactly half covered, which are free both ways.
    assert np.mean((c == FREE) == (b != FREE)) > 0.99


def test_threshold_and_coverage_options():
    img = Image.fromarray(np.tile(np.linspace(0, 255, 256).astype(np.uint8), (64, 1)))
    dark_share = (weights_from_image(img, cells=64, threshold=64) == FREE).mean()
    # The right (light) side touches more border; the dark quarter is the figure.
    assert dark_share == pytest.approx(0.25, abs=0.03)
    loose = (weights_from_image(img, cells=16, threshold=70, coverage=0.1) == FREE).sum()
    strict = (weights_from_image(img, cells=16, threshold=70, coverage=1.0) == FREE).sum()
    assert loose > strict
    with pytest.raises(ValueError, match="threshold"):
        weights_from_image(img, cells=10, threshold=300)
    with pytest.raises(ValueError, match="coverage"):
        weights_from_image(img, cells=10, coverage=0)
    with pytest.raises(ValueError, match="cells"):
        weights_from_image(img, cells=0)


def test_flat_image_is_a_clear_error():
    with pytest.raises(ValueError, match="single flat tone"):
        weights_from_image(Image.new("L", (20, 20), 128), cells=10)


def test_open_image_errors(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        open_image(tmp_path / "missing.png")
    (tmp_path / "notes.png").write_text("not a picture")
    with pytest.raises(ValueError, match="not an image"):
        open_image(tmp_path / "notes.png")
    whole = (SKIMAGE_DATA / "horse.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValueError, match="truncated or corrupt"):
        open_image(tmp_path / "cut.png")


@given(arrays(np.float64, (20, 3), elements=st.floats(0, 1)))
def test_lab_colours_match_scikit_image(rgb):
    """The CIE Lab conversion the picture checks use, against scikit-image's rgb2lab."""
    from skimage.color import rgb2lab

    from mazeart.image import srgb_to_lab

    assert np.allclose(srgb_to_lab(rgb), rgb2lab(rgb[None])[0], atol=1e-3)
