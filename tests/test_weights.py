"""The weight-matrix contract and its three file formats."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from mazeart.weights import (
    FORBIDDEN,
    FREE,
    PATH,
    is_preset_file,
    load_preset,
    preset_from_text,
    preset_to_text,
    save_preset,
    validate_weights,
)


def test_constants_follow_the_seed():
    assert (FREE, PATH, FORBIDDEN) == (0, 500, 1000)


def test_text_preset_reads_a_drawing():
    w = preset_from_text(
        """
        #####
        #..*#
        #####
        """
    )
    assert w.dtype == np.int32
    assert w.tolist() == [
        [1000] * 5,
        [1000, 0, 0, 500, 1000],
        [1000] * 5,
    ]


def test_text_preset_errors_name_the_place():
    with pytest.raises(ValueError, match="line 2 has 2 characters, expected 3"):
        preset_from_text("...\n..\n")
    with pytest.raises(ValueError, match="line 1, column 2: unknown character '~'"):
        preset_from_text(".~.")
    with pytest.raises(ValueError, match="empty"):
        preset_from_text("\n\n")


@given(presets())
def test_text_roundtrip_of_free_and_forbidden(weights):
    plain = np.where(weights == FREE, FREE, FORBIDDEN).astype(np.int32)
    assert np.array_equal(preset_from_text(preset_to_text(plain)), plain)


@pytest.mark.parametrize("suffix", [".npy", ".png"])
@given(
    weights=arrays(
        np.int32,
        st.tuples(st.integers(1, 12), st.integers(1, 12)),
        elements=st.sampled_from([FREE, 1, 3, PATH, FORBIDDEN, 700, 2024, 65537]),
    )
)
def test_exact_roundtrip_through_files(tmp_path_factory, suffix, weights):
    path = tmp_path_factory.mktemp("p") / f"preset{suffix}"
    save_preset(weights, path)
    assert is_preset_file(path)
    back = load_preset(path)
    assert back.dtype == np.int32
    np.testing.assert_array_equal(back, weights)


def test_painted_png_maps_to_nearest_key_colour(tmp_path):
    weights = np.where(np.arange(30).reshape(5, 6) % 4 == 0, FORBIDDEN, FREE).astype(np.int32)
    path = tmp_path / "preset.png"
    save_preset(weights, path)
    # A designer paints with slightly-off colours and an anti-aliased grey.
    img = Image.open(path)
    info = dict(img.info)
    px = np.asarray(img.convert("RGB")).copy()
    px[0, 1] = (250, 248, 251)  # nearly white: free
    px[0, 2] = (30, 20, 25)  # nearly black: forbidden
    from PIL import PngImagePlugin

    meta = PngImagePlugin.PngInfo()
    for k, v in info.items():
        if isinstance(v, str):
            meta.add_text(k, v)
    Image.fromarray(px).save(path, pnginfo=meta)
    back = load_preset(path)
    assert back[0, 1] == FREE and back[0, 2] == FORBIDDEN
    expected = weights.copy()
    expected[0, 1], expected[0, 2] = FREE, FORBIDDEN
    np.testing.assert_array_equal(back, expected)


def test_png_without_key_reads_black_and_white(tmp_path):
    px = np.full((4, 5), 255, np.uint8)
    px[1:3, 1:4] = 0
    Image.fromarray(px).save(tmp_path / "hand.png")
    assert not is_preset_file(tmp_path / "hand.png")
    w = load_preset(tmp_path / "hand.png")
    assert (w == FORBIDDEN).sum() == 6 and (w == FREE).sum() == 14


def test_validate_and_load_errors(tmp_path):
    with pytest.raises(ValueError, match="two-dimensional"):
        validate_weights(np.zeros(3))
    with pytest.raises(ValueError, match="negative"):
        validate_weights(np.array([[0, -1]]))
    with pytest.raises(ValueError, match="integers"):
        validate_weights(np.array([["a"]]))
    with pytest.raises(ValueError, match="whole numbers"):
        validate_weights(np.array([[0.5]]))
    with pytest.raises(ValueError, match="empty"):
        validate_weights(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="no such file"):
        load_preset(tmp_path / "nope.npy")
    (tmp_path / "bad.npy").write_bytes(b"garbage")
    with pytest.raises(ValueError, match=r"not a readable \.npy"):
        load_preset(tmp_path / "bad.npy")
    with pytest.raises(ValueError, match="unknown preset format"):
        save_preset(np.zeros((2, 2), np.int32), tmp_path / "x.bmp")
    assert not (tmp_path / "x.bmp").exists()
