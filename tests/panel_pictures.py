"""What the panel tests compare: a PNG's pixels, and a panel moved through settings against new
panels built at each (tests/test_widgets_redraw_02.py, test_widgets_redraw_03_05.py,
test_widgets_render_06_08.py, test_widgets_trees_04.py)."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image


def png_pixels(png: bytes) -> np.ndarray:
    """The pixels of a PNG (what the page shows of a panel's ``image.value``)."""
    return np.asarray(Image.open(io.BytesIO(png)))


def figure_pixels(figure, **savefig) -> np.ndarray:
    """The pixels of ``figure`` saved as a PNG (``savefig`` keywords passed on)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", **savefig)
    return png_pixels(buffer.getvalue())


def same_picture(a: bytes, b: bytes) -> bool:
    """Two PNGs of the same size with the same pixels."""
    x, y = png_pixels(a), png_pixels(b)
    return x.shape == y.shape and bool((x == y).all())


def assert_shows_what_a_new_panel_shows(moved, fresh, where) -> None:
    """``moved`` (updated in place) shows ``fresh``'s picture, alt text and read-out."""
    assert same_picture(moved.image.value, fresh.image.value), where
    assert moved.alt_text == fresh.alt_text, where
    assert moved.readout.value == fresh.readout.value, where


def move_and_compare(moved, steps, new_panel) -> list:
    """Move ``moved``'s controls step by step (each step a dict of control values, applied on
    top of the earlier ones); after each step that shows a picture (not a message), compare the
    panel with ``new_panel(**every value set so far)``. Returns ``(values, result)`` of each
    compared step."""
    state: dict = {}
    compared = []
    for step in steps:
        for name, value in step.items():
            moved.controls[name].value = value
        state.update(step)
        if moved.error is not None:
            continue
        assert_shows_what_a_new_panel_shows(moved, new_panel(**state), state)
        compared.append((dict(state), moved.result))
    return compared
