"""The screen translator and screenshot helpers, through their public functions."""

from __future__ import annotations

import numpy as np
import pytest

from bmoca.env.observations import (
    Element,
    ObservationError,
    describe,
    resize,
    set_of_marks,
    translate,
)

SETTINGS_ROW = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" resource-id="" text="" content-desc=""
        checked="false" selected="false" focused="false" bounds="[0,280][1080,380]">
    <node class="android.widget.TextView" resource-id="android:id/title" text="Wi-Fi"
          content-desc="" checked="false" selected="false" focused="false"
          bounds="[42,300][600,360]"/>
    <node class="android.widget.Switch" resource-id="com.android.settings:id/switch_widget"
          text="ON" content-desc="" checked="true" selected="false" focused="false"
          bounds="[900,300][1040,360]"/>
  </node>
</hierarchy>
UI hierchary dumped to: /dev/tty
"""

NESTED = """<hierarchy>
  <node class="a.Root" bounds="[0,0][100,200]">
    <node class="a.A" bounds="[0,0][100,100]">
      <node class="a.A1" bounds="[0,0][50,50]"/>
      <node class="a.A2" bounds="[50,0][100,50]" selected="true"/>
    </node>
    <node class="a.B" bounds="[0,100][100,200]" content-desc="b">
      <node class="a.B1" bounds="[0,100][100,150]" focused="true"/>
    </node>
    <node class="a.NoBounds"/>
  </node>
</hierarchy>"""


def test_reference_example_is_reproduced_exactly():
    elements = translate(SETTINGS_ROW)
    expected = (
        "[{'numeric_tag': 0, 'resource_id': 'title', 'class': 'TextView', "
        "'content_description': '', 'text': 'Wi-Fi', 'checked': 'false'},\n"
        " {'numeric_tag': 1, 'resource_id': 'switch_widget', 'class': 'Switch', "
        "'content_description': '', 'text': 'ON', 'checked': 'true'},\n"
        " {'numeric_tag': 2, 'resource_id': '', 'class': 'FrameLayout', "
        "'content_description': '', 'text': '', 'checked': 'false'}]"
    ).replace("\n", "")
    assert describe(elements, 1080, 2160) == expected


def test_bbox_option_formats_two_decimals_and_check_can_be_dropped():
    title = translate(SETTINGS_ROW)[0]
    text = describe([title], 1080, 2160, check=False, bbox=True)
    assert text == ("[{'numeric_tag': 0, 'resource_id': 'title', 'class': 'TextView', "
                    "'content_description': '', 'text': 'Wi-Fi', "
                    "'bbox location': '((0.04, 0.14), (0.56, 0.17))'}]")


def test_elements_keep_full_ids_and_pixel_bounds():
    title, switch, row = translate(SETTINGS_ROW)
    assert title.full_resource_id == "android:id/title"
    assert switch.full_resource_id == "com.android.settings:id/switch_widget"
    assert switch.bounds == (900, 300, 1040, 360)
    assert row.cls == "FrameLayout" and row.resource_id == ""
    assert title.center == (321, 330)


def test_post_order_and_checked_from_checked_selected_or_focused():
    elements = translate(NESTED)
    assert [e.cls for e in elements] == ["A1", "A2", "A", "B1", "B", "Root"]
    assert [e.numeric_tag for e in elements] == list(range(6))
    assert {e.cls: e.checked for e in elements} == {
        "A1": "false", "A2": "true", "A": "false", "B1": "true", "B": "false", "Root": "false"}
    assert elements[4].content_description == "b"


@pytest.mark.parametrize("xml, needle", [
    ("<hierarchy><node bounds='[0,0][1,1]'></hierarchy>", "malformed hierarchy XML"),
    ("", "empty"),
    ("<hierarchy><node class='x.Y' bounds='[0,0]'/></hierarchy>", r"malformed bounds '\[0,0\]'"),
])
def test_malformed_xml_raises_observation_error(xml, needle):
    with pytest.raises(ObservationError, match=needle):
        translate(xml)
    assert issubclass(ObservationError, ValueError)


def test_entities_are_not_expanded():
    xml = ('<!DOCTYPE h [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
           '<hierarchy><node text="&e;" bounds="[0,0][1,1]"/></hierarchy>')
    try:
        elements = translate(xml)
    except ObservationError:
        return
    assert "root" not in elements[0].text


@pytest.fixture(scope="module")
def sim_dump():
    import bmoca.configs
    import bmoca.device

    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    try:
        yield device.dump_hierarchy(), device.screen_size()
    finally:
        device.close()


def test_translator_on_a_real_simulator_dump(sim_dump):
    from lxml import etree

    xml, (width, height) = sim_dump
    elements = translate(xml)
    assert len(elements) > 10
    root = elements[-1]
    assert root.cls == "FrameLayout" and root.numeric_tag == len(elements) - 1
    assert root.bounds == (0, 0, width, height)
    for element in elements:
        x1, y1, x2, y2 = element.bounds
        assert 0 <= x1 <= x2 <= width and 0 <= y1 <= y2 <= height, element

    # Label every node, translate again, and compare tags along each parent-child edge.
    tree = etree.fromstring(xml.encode("utf-8"))
    nodes = [n for n in tree.iter("node")]
    for k, node in enumerate(nodes):
        node.set("content-desc", f"n{k}")
    tag_of = {e.content_description: e.numeric_tag
              for e in translate(etree.tostring(tree, encoding="unicode"))}
    assert len(tag_of) == len(nodes) == len(elements)
    assert tag_of["n0"] == len(nodes) - 1
    edges = 0
    for node in nodes:
        for child in node.iterchildren("node"):
            assert tag_of[child.get("content-desc")] < tag_of[node.get("content-desc")]
            edges += 1
    assert edges == len(nodes) - 1
    texts = {e.text for e in elements}
    assert any(texts - {""})
    assert describe(elements, width, height).startswith("[{'numeric_tag': 0, ")


def test_resize_averages_areas():
    image = np.zeros((4, 4, 3), dtype=np.uint8)
    image[:2, :2] = 200  # top-left quadrant
    image[0, 2:] = 100  # half of the top-right quadrant
    small = resize(image, (2, 2))
    assert small.shape == (2, 2, 3) and small.dtype == np.uint8
    assert small[0, 0].tolist() == [200, 200, 200]
    assert small[0, 1].tolist() == [50, 50, 50]
    assert small[1].tolist() == [[0, 0, 0], [0, 0, 0]]


def test_resize_takes_width_then_height_and_rejects_bad_input():
    frame = np.zeros((2160, 1080, 3), dtype=np.uint8)
    assert resize(frame, (128, 256)).shape == (256, 128, 3)
    with pytest.raises(ObservationError, match="shape"):
        resize(np.zeros((10, 10), dtype=np.uint8), (5, 5))
    with pytest.raises(ObservationError, match="uint8"):
        resize(np.zeros((10, 10, 3), dtype=np.float32), (5, 5))
    with pytest.raises(ValueError, match="size"):
        resize(frame, (0, 5))


def _element(tag: int, bounds: tuple[int, int, int, int]) -> Element:
    return Element(tag, "", "View", "", "", "false", bounds)


def test_set_of_marks_draws_boxes_deterministically():
    frame = np.full((400, 200, 3), 255, dtype=np.uint8)
    elements = [_element(0, (20, 40, 100, 120)), _element(1, (0, 0, 200, 400)),
                _element(2, (50, 50, 50, 90))]
    marked = set_of_marks(frame, elements, (100, 200))
    assert marked.shape == (200, 100, 3) and marked.dtype == np.uint8
    assert np.array_equal(marked, set_of_marks(frame, elements, (100, 200)))
    # Element 0 (scaled to x 10-49, y 20-59) is outlined; the label sits at its corner.
    assert (marked[40, 10] != 255).any() and (marked[40, 49] != 255).any()
    assert (marked[20:24, 10:14] != 255).any()
    # The full-screen container (1) and the degenerate box (2) are not drawn.
    assert (marked[100:200, :] == 255).all() and (marked[:, 60:] == 255).all()
    # `only` chooses what to draw.
    blank = set_of_marks(frame, elements, (100, 200), only=set())
    assert (blank == 255).all()
    full = set_of_marks(frame, elements, (100, 200), only={1})
    assert (full[199, 50] != 255).any()
