"""The op library: every ``examples/*.tile`` program run through plaidc against numpy.

Three groups of tests:

* bookkeeping: every ``.tile`` file is in the manifest and has a reference, and every manifest
  entry agrees with its file's signature (input names, dimension names, sizes) -- so no program
  is silently untested and no manifest typo goes unnoticed;
* the references themselves: output names, shapes and dtypes as the manifest states, and the
  tricky ones (convolution, pooling, grouping, argmax ties, ...) against a second, naive numpy
  formulation;
* differential execution: compile each entry with ``plaidc.tile.compile_tile``, run it with
  ``plaidc.interp.run_program`` and compare every output with the reference (fp32: rtol 1e-4,
  atol 1e-5 unless the manifest says otherwise; integers and bools exactly, dtypes exactly).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from . import oplib_reference as ref
from .oplib_reference import REFERENCES, ManifestError, ProgramSpec, make_inputs
from .support.oplib import (
    assert_output_matches,
)

MANIFEST = ref.load_manifest()
NAMES = sorted(MANIFEST)

_SIGNATURE = re.compile(
    r"function\s*(?:[a-z_$][\w$]*)?\s*\((?P<inputs>[^)]*)\)\s*->\s*\((?P<outputs>[^)]*)\)"
)
_INPUT = re.compile(r"(?P<name>[A-Z#][\w']*)\s*(?:\[(?P<dims>[^\]]*)\])?")


def _strip_comments(source: str) -> str:
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", source)


def _signature(path: Path) -> tuple[dict[str, list[str]], list[str]]:
    """The first function's inputs (name -> dim spellings) and output names, by regex."""
    match = _SIGNATURE.search(_strip_comments(path.read_text()))
    assert match, f"{path.name}: no `function (...) -> (...)` signature found"
    inputs = {
        m["name"]: [d.strip() for d in m["dims"].split(",") if d.strip()] if m["dims"] else []
        for m in _INPUT.finditer(match["inputs"])
    }
    outputs = [o.split(":")[0].strip() for o in match["outputs"].split(",")]
    return inputs, outputs


# --------------------------------------------------------------------------------------------
# Bookkeeping
# --------------------------------------------------------------------------------------------


def test_every_example_file_is_in_the_manifest() -> None:
    files = {path.name for path in ref.EXAMPLES_DIR.glob("*.tile")}
    listed = {spec.path.name for spec in MANIFEST.values()}
    assert files - listed == set(), "examples without a manifest entry"
    assert listed - files == set(), "manifest entries naming missing files"
    assert len(files) >= 30


def test_every_manifest_entry_has_a_reference() -> None:
    assert set(MANIFEST) == set(REFERENCES)


@pytest.mark.parametrize("name", NAMES)
def test_manifest_agrees_with_signature(name: str) -> None:
    spec = MANIFEST[name]
    signature_inputs, signature_outputs = _signature(spec.path)
    assert list(spec.inputs) == list(signature_inputs), "inputs in signature order"
    assert sorted(spec.outputs) == sorted(signature_outputs)
    used_dims: set[str] = set()
    for input_name, dims in signature_inputs.items():
        bound = []
        for dim in dims:
            if dim.isdigit():
                bound.append(int(dim))
            else:
                assert dim in spec.defines, f"{input_name}: dimension {dim} not in defines"
                bound.append(spec.defines[dim])
                used_dims.add(dim)
        assert tuple(bound) == spec.inputs[input_name].shape, input_name
    assert set(spec.defines) == used_dims, "defines naming no signature dimension"


def test_every_example_has_a_header_comment() -> None:
    for path in ref.EXAMPLES_DIR.glob("*.tile"):
        first = path.read_text().splitlines()[0]
        assert first.startswith(f"// {path.stem}:"), f"{path.name}: header should name the op"


def test_manifest_rejects_unknown_keys_and_dtypes() -> None:
    good = "[p]\ndefines = {N = 2}\n[p.inputs]\nI = {shape = [2]}\n[p.outputs]\nO = {shape = [2]}\n"
    assert ref.parse_manifest(good)["p"].inputs["I"].dtype == "fp32"
    with pytest.raises(ManifestError, match="unknown key"):
        ref.parse_manifest(good.replace("defines", "defins"))
    with pytest.raises(ManifestError, match="dtype"):
        ref.parse_manifest(
            good.replace("shape = [2]}\n[p.outputs]", 'shape = [2], dtype = "f32"}\n[p.outputs]')
        )
    with pytest.raises(ManifestError, match="shape"):
        ref.parse_manifest(good.replace("I = {shape = [2]}", "I = {shape = [0]}"))


def test_make_inputs_is_deterministic_and_respects_ranges() -> None:
    spec = MANIFEST["gather"]
    first, second = make_inputs(spec), make_inputs(spec)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])
    indices = first["I"]
    assert indices.dtype == np.int32
    assert indices.min() >= 0
    assert indices.max() < spec.inputs["V"].shape[0]
    arange = make_inputs(MANIFEST["one_hot"])["Count"]
    np.testing.assert_array_equal(arange, np.arange(arange.size, dtype=np.int32))


# --------------------------------------------------------------------------------------------
# The references on their own
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_reference_outputs_match_manifest(name: str) -> None:
    spec = MANIFEST[name]
    outputs = REFERENCES[name](make_inputs(spec))
    assert set(outputs) == set(spec.outputs)
    for out_name, out_spec in spec.outputs.items():
        value = outputs[out_name]
        assert value.shape == out_spec.shape, out_name
        assert value.dtype == ref.NUMPY_DTYPES[out_spec.dtype], out_name
        if value.dtype.kind == "f":
            assert np.isfinite(value).all(), out_name


@pytest.mark.parametrize(
    ("image_shape", "kernel_shape"),
    [((1, 4, 5, 2), (2, 3, 2, 3)), ((2, 5, 4, 3), (3, 3, 3, 2)), ((1, 3, 3, 1), (3, 3, 1, 1))],
)
def test_conv2d_windows_match_loops(
    image_shape: tuple[int, ...], kernel_shape: tuple[int, ...]
) -> None:
    rng = np.random.default_rng(1)
    image, kernel = rng.normal(size=image_shape), rng.normal(size=kernel_shape)
    np.testing.assert_allclose(
        ref.conv2d_nhwc(image, kernel), ref.conv2d_nhwc_loops(image, kernel), rtol=1e-12
    )


def _direct_conv(
    image: np.ndarray, kernel: np.ndarray, stride: int, dilation: int, pad: tuple[int, int]
) -> np.ndarray:
    """Convolution straight from its definition with explicit stride, dilation and padding."""
    n_, h_, w_, _ = image.shape
    kh, kw, _, co = kernel.shape
    oh = (h_ + 2 * pad[0] - dilation * (kh - 1) - 1) // stride + 1
    ow = (w_ + 2 * pad[1] - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n_, oh, ow, co))
    for x in range(oh):
        for y in range(ow):
            for i in range(kh):
                for j in range(kw):
                    row = x * stride + i * dilation - pad[0]
                    col = y * stride + j * dilation - pad[1]
                    if 0 <= row < h_ and 0 <= col < w_:
                        out[:, x, y, :] += image[:, row, col, :] @ kernel[i, j]
    return out


def _spec_inputs(name: str) -> dict[str, np.ndarray]:
    return make_inputs(MANIFEST[name])


@pytest.mark.parametrize(
    ("name", "stride", "dilation", "same"),
    [
        ("conv2d_padded", 1, 1, True),
        ("conv2d_strided", 2, 1, False),
        ("conv2d_dilated", 1, 2, False),
    ],
)
def test_conv_variants_match_direct_definition(
    name: str, stride: int, dilation: int, same: bool
) -> None:
    reference = {
        "conv2d_padded": ref.conv2d_padded,
        "conv2d_strided": ref.conv2d_strided,
        "conv2d_dilated": ref.conv2d_dilated,
    }[name]
    inputs = _spec_inputs(name)
    image, kernel = inputs["I"].astype(np.float64), inputs["K"].astype(np.float64)
    pad = ((kernel.shape[0] - 1) // 2, (kernel.shape[1] - 1) // 2) if same else (0, 0)
    expected = _direct_conv(image, kernel, stride, dilation, pad)
    np.testing.assert_allclose(reference(inputs)["O"], expected, rtol=1e-5, atol=1e-6)


def test_grouped_and_depthwise_conv_match_block_diagonal_full_conv() -> None:
    inputs = _spec_inputs("conv2d_grouped")
    image, kernel = inputs["I"].astype(np.float64), inputs["K"].astype(np.float64)
    cig, co = kernel.shape[2], kernel.shape[3]
    groups = image.shape[3] // cig
    full = np.zeros((*kernel.shape[:2], image.shape[3], co))
    for out_channel in range(co):
        group = out_channel // (co // groups)
        full[:, :, group * cig : (group + 1) * cig, out_channel] = kernel[..., out_channel]
    expected = ref.conv2d_nhwc_loops(image, full)
    np.testing.assert_allclose(ref.conv2d_grouped(inputs)["O"], expected, rtol=1e-5, atol=1e-6)

    inputs = _spec_inputs("conv2d_depthwise")
    image, kernel = inputs["I"].astype(np.float64), inputs["K"].astype(np.float64)
    channels, multiplier = kernel.shape[2], kernel.shape[3]
    full = np.zeros((*kernel.shape[:2], channels, channels * multiplier))
    for c in range(channels):
        full[:, :, c, c * multiplier : (c + 1) * multiplier] = kernel[:, :, c, :]
    expected = ref.conv2d_nhwc_loops(image, full)
    np.testing.assert_allclose(ref.conv2d_depthwise(inputs)["O"], expected, rtol=1e-5, atol=1e-6)


def test_tc_gconv_matches_einsum_over_explicit_windows() -> None:
    inputs = _spec_inputs("tc_gconv")
    image, weight, bias = (inputs[k].astype(np.float64) for k in ("I", "W1", "B"))
    kh, kw = weight.shape[3:]
    oh, ow = image.shape[3] - kh + 1, image.shape[4] - kw + 1
    expected = np.zeros((image.shape[0], image.shape[1], weight.shape[1], oh, ow))
    for i in range(kh):
        for j in range(kw):
            window = image[:, :, :, i : i + oh, j : j + ow]
            expected += np.einsum("ngchw,gfc->ngfhw", window, weight[:, :, :, i, j])
    expected += bias[None, :, :, None, None]
    np.testing.assert_allclose(ref.tc_gconv(inputs)["O"], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("window", "stride", "pad", "mode"),
    [(2, 2, 0, "max"), (3, 2, 0, "avg"), (3, 2, 1, "max"), (3, 1, 1, "avg"), (3, 1, 1, "max")],
)
def test_pooling_matches_loops(window: int, stride: int, pad: int, mode: str) -> None:
    image = np.random.default_rng(2).normal(size=(2, 7, 6, 3))
    np.testing.assert_allclose(
        ref.pool2d_nhwc(image, window, stride, pad, mode),
        ref.pool2d_nhwc_loops(image, window, stride, pad, mode),
        rtol=1e-12,
    )


def test_argmax_takes_the_last_of_tied_maxima() -> None:
    x = np.array([[1.0, 3.0, 3.0, 0.0], [5.0, 5.0, 5.0, 5.0], [0.0, -1.0, 2.0, 1.0]], np.float32)
    np.testing.assert_array_equal(ref.argmax({"X": x})["O"], np.array([2, 3, 2], np.int32))


def test_softmax_family_references_agree() -> None:
    x = make_inputs(MANIFEST["log_softmax"])["X"]
    probabilities = ref.softmax({"X": x})["Y"].astype(np.float64)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(
        ref.log_softmax({"X": x})["Y"], np.log(probabilities), rtol=1e-5, atol=1e-6
    )


def test_normalisation_references_agree_with_their_definitions() -> None:
    inputs = make_inputs(MANIFEST["layernorm"])
    y = ref.layernorm(inputs)["Y"].astype(np.float64)
    standardised = (y - inputs["Beta"]) / inputs["Gamma"]
    np.testing.assert_allclose(standardised.mean(axis=1), 0.0, atol=1e-5)
    np.testing.assert_allclose((standardised**2).mean(axis=1), 1.0, rtol=1e-3)

    x = make_inputs(MANIFEST["mean_variance"])["X"].astype(np.float64)
    stats = ref.mean_variance({"X": x})
    count = x.shape[0]
    np.testing.assert_allclose(stats["Mean"], x.sum(axis=0) / count, rtol=1e-6)
    expected_var = (x**2).sum(axis=0) / count - (x.sum(axis=0) / count) ** 2
    np.testing.assert_allclose(stats["Var"], expected_var, rtol=1e-5, atol=1e-6)


def test_small_references_agree_with_second_formulations() -> None:
    values = np.arange(1.0, 7.0, dtype=np.float32)
    lower_triangle = np.tril(np.ones((6, 6)))
    np.testing.assert_allclose(ref.cumsum({"I": values})["O"], lower_triangle @ values)

    tile = np.random.default_rng(3).normal(size=(10, 20)).astype(np.float32)
    np.testing.assert_array_equal(ref.tile_no_defract({"A": tile})["O"], np.tile(tile, (5, 4)))

    idx = np.array([2, 0, 4], np.int32)
    expected = np.eye(5, dtype=bool)[idx]
    actual = ref.one_hot({"Idx": idx, "Count": np.arange(5, dtype=np.int32)})["O"]
    np.testing.assert_array_equal(actual, expected)


# --------------------------------------------------------------------------------------------
# Differential execution through plaidc
# --------------------------------------------------------------------------------------------


def _compile_and_run(spec: ProgramSpec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    # Imported here so that the bookkeeping and reference tests above run without the compiler.
    from plaidc.interp import run_program
    from plaidc.stripe.ir import DType
    from plaidc.tile import compile_tile

    shapes = {name: (DType(spec.inputs[name].dtype), arr.shape) for name, arr in inputs.items()}
    compiled = compile_tile(
        spec.path.read_text(), str(spec.path), dims=dict(spec.defines), shapes=shapes
    )
    return dict(run_program(compiled.program, inputs))


@pytest.mark.parametrize("name", NAMES)
def test_program_matches_numpy_reference(name: str) -> None:
    spec = MANIFEST[name]
    inputs = make_inputs(spec)
    expected = REFERENCES[name](inputs)
    actual = _compile_and_run(spec, {k: v.copy() for k, v in inputs.items()})
    assert set(actual) == set(expected), "outputs by Tile name"
    for out_name, want in expected.items():
        assert_output_matches(f"{name}.{out_name}", actual[out_name], want, spec.rtol, spec.atol)
