"""Channels-last activations in the ONNX import (`plaidc.onnx.layout`), against onnxruntime.

Convolutions write channels-last tensors; pooling, inference BatchNormalization and
elementwise ops keep them; every other op and every graph output reads the ONNX order through
one transposing copy. The models mix all of these on odd shapes (channel counts no vector
width divides, strides, padding, batch 2, grouped and 1-D/3-D convolutions, a run-time
operand in the ONNX order) and must give onnxruntime's values on every CPU target, and the
same values as an import that keeps the ONNX order.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from plaidc.onnx import import_model  # noqa: E402
from plaidc.onnx.runner import run_onnx  # noqa: E402

from .support.onnx_models import model_of  # noqa: E402

RNG = np.random.default_rng(11)


def _w(name: str, *shape: int, scale: float = 0.3) -> object:
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32), name)


def _positive(name: str, *shape: int) -> object:
    return numpy_helper.from_array(RNG.uniform(0.5, 1.5, shape).astype(np.float32), name)


def _save(tmp_path: Path, nodes: list, inputs: list, outputs: list, inits: list) -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    model = model_of(graph, 17)
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    return path


def _out(name: str) -> object:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, None)


def residual_net(tmp_path: Path) -> Path:
    """A ResNet-like block and more: strided padded conv + BN + relu, a padded strided
    MaxPool, a conv + PRelu (known [C,1,1] slope) + residual Add, a Mul by a run-time
    [1,C,1,1] input (ONNX order), a depthwise SAME conv with bias, AveragePool without the
    padding in its divisor, a Transpose and a ReduceSum reading one channels-last tensor,
    GlobalAveragePool + Flatten + Gemm; 13 channels, 17x15 images, batch 2."""
    c = 13
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 17, 15])
    gate = helper.make_tensor_value_info("gate", TensorProto.FLOAT, [1, c, 1, 1])
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c1", "s", "bb", "m", "v"], ["bn"]),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p"], kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["p", "w2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("PRelu", ["c2", "slope"], ["pr"]),
        helper.make_node("Add", ["pr", "p"], ["sum"]),
        helper.make_node("Mul", ["sum", "gate"], ["gated"]),
        helper.make_node("Conv", ["gated", "w3", "b3"], ["c3"], group=c, auto_pad="SAME_UPPER",
                         kernel_shape=[3, 3]),
        helper.make_node("AveragePool", ["c3"], ["avg"], kernel_shape=[3, 2], pads=[1, 0, 1, 1],
                         count_include_pad=0),
        helper.make_node("Transpose", ["r1"], ["t"], perm=[0, 1, 3, 2]),
        helper.make_node("ReduceSum", ["r1", "axes1"], ["rs"], keepdims=0),
        helper.make_node("GlobalAveragePool", ["avg"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["logits"], transB=1),
    ]  # fmt: skip
    inits = [
        _w("w1", c, 5, 3, 3), _w("b1", c), _positive("s", c), _w("bb", c), _w("m", c),
        _positive("v", c), _w("w2", c, c, 3, 3), _w("slope", c, 1, 1), _w("w3", c, 1, 3, 3),
        _w("b3", c), _w("wf", 7, c), _w("bf", 7),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axes1"),
    ]  # fmt: skip
    outputs = [_out(n) for n in ("avg", "t", "rs", "logits")]
    return _save(tmp_path, nodes, [x, gate], outputs, inits)


def other_ranks(tmp_path: Path) -> Path:
    """Conv1d + relu + MaxPool1d, and a strided padded Conv3d + BatchNorm, as graph outputs."""
    x1 = helper.make_tensor_value_info("x1", TensorProto.FLOAT, [2, 3, 20])
    x3 = helper.make_tensor_value_info("x3", TensorProto.FLOAT, [1, 4, 6, 7, 5])
    nodes = [
        helper.make_node("Conv", ["x1", "k1"], ["a"], pads=[1, 1]),
        helper.make_node("Relu", ["a"], ["ar"]),
        helper.make_node("MaxPool", ["ar"], ["y1"], kernel_shape=[2], strides=[2]),
        helper.make_node("Conv", ["x3", "k3"], ["b"], pads=[1] * 6, strides=[2, 2, 2]),
        helper.make_node("BatchNormalization", ["b", "s", "bb", "m", "v"], ["y3"]),
    ]
    inits = [
        _w("k1", 6, 3, 3), _w("k3", 5, 4, 3, 3, 3), _positive("s", 5), _w("bb", 5),
        _w("m", 5), _positive("v", 5),
    ]  # fmt: skip
    return _save(tmp_path, nodes, [x1, x3], [_out("y1"), _out("y3")], inits)


MODELS = {
    "residual": (residual_net, {"x": (2, 5, 17, 15), "gate": (1, 13, 1, 1)}),
    "ranks": (other_ranks, {"x1": (2, 3, 20), "x3": (1, 4, 6, 7, 5)}),
}


def _feeds(shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    return {n: RNG.standard_normal(s).astype(np.float32) for n, s in shapes.items()}


def _ort(path: Path, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, feeds), strict=True))


@pytest.mark.parametrize("target", ["interp", "c", "llvm"])
@pytest.mark.parametrize("which", sorted(MODELS))
def test_channels_last_models_match_onnxruntime(tmp_path: Path, which: str, target: str) -> None:
    build, shapes = MODELS[which]
    path = build(tmp_path)
    feeds = _feeds(shapes)
    want = _ort(path, feeds)
    got = run_onnx(str(path), feeds, target)
    for name, expected in want.items():
        assert got[name].shape == expected.shape, name
        np.testing.assert_allclose(got[name], expected, rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("which", sorted(MODELS))
def test_onnx_order_import_gives_the_same_values(tmp_path: Path, which: str) -> None:
    build, shapes = MODELS[which]
    path = build(tmp_path)
    feeds = _feeds(shapes)
    last = run_onnx(str(path), feeds, "interp")
    plain = run_onnx(str(path), feeds, "interp", channels_last=False)
    for name, value in plain.items():
        np.testing.assert_allclose(last[name], value, rtol=1e-5, atol=1e-6, err_msg=name)


def test_one_transposing_copy_per_channels_last_tensor(tmp_path: Path) -> None:
    text = import_model(str(residual_net(tmp_path))).tile
    # every convolution writes channels-last, with weights (ky, kx, c, m)
    assert "Conv[n, x0, x1, m : 2, 9, 8, 13]" in text
    assert "W1[k0, k1, c, m]" in text
    # a padded convolution reads a zero-padded channels-last copy, with no padding bounds
    assert "Padded[n, y0, y1, c : 2, 19, 17, 5] = =(X[n, c, y0 - 1, y1 - 1])" in text
    assert "+(Padded[n, 2 * x0 + k0, 2 * x1 + k1, c] * W1[k0, k1, c, m])" in text
    assert "MaxPool[n, x0, x1, c : 2, 5, 4, 13]" in text
    # Gemm's known transB weights are transposed at import: output columns contiguous
    assert "Gemm_ab[m, n : 2, 7] = +(R[m, k] * Wf[k, n])" in text
    # the ONNX-order copies: r1 for Transpose and ReduceSum together, the residual sum
    # (Mul with a run-time ONNX-order input), the pooled vector (Flatten), the graph output
    copies = [line for line in text.splitlines() if line.lstrip().startswith("Ordered")]
    assert len(copies) == 4, copies
    assert sum("=(Relu[" in line for line in copies) == 1
    plain = import_model(str(residual_net(tmp_path)), channels_last=False).tile
    assert "Ordered" not in plain and "Conv[n, m, x0, x1 : 2, 13, 9, 8]" in plain


def _random_weights(model: object) -> None:
    """Replace a model's float weights: convolutions and matrices scaled by their fan-in,
    vectors (BatchNorm's scales, shifts, means, variances) in [0.5, 1.5)."""
    rng = np.random.default_rng(0)
    graph = model.graph  # type: ignore[attr-defined]
    for k, init in enumerate(graph.initializer):
        array = numpy_helper.to_array(init)
        if array.dtype != np.float32:
            continue
        if array.ndim >= 2:
            fan_in = int(np.prod(array.shape[1:]))
            new = rng.standard_normal(array.shape) * np.sqrt(1.0 / fan_in)
        else:
            new = rng.uniform(0.5, 1.5, array.shape)
        graph.initializer[k].CopyFrom(numpy_helper.from_array(new.astype(np.float32), init.name))


def test_resnet50_with_random_weights_matches_onnxruntime(tmp_path: Path) -> None:
    """The real ResNet-50 graph (the onnx package's light model) with random weights, its
    logits (the light weights make every probability 0.001) compared on c."""
    import onnx.backend.test as backend_test

    source = Path(backend_test.__file__).parent / "data" / "light" / "light_resnet50.onnx"
    model = onnx.load(str(source))
    _random_weights(model)
    (gemm,) = [n for n in model.graph.node if n.op_type == "Gemm"]
    model.graph.output.append(_out(gemm.output[0]))
    path = tmp_path / "resnet50.onnx"
    onnx.save(model, str(path))
    feeds = {"gpu_0/data_0": RNG.standard_normal((1, 3, 224, 224)).astype(np.float32)}
    want = _ort(path, feeds)[gemm.output[0]]
    got = run_onnx(str(path), feeds, "c")[gemm.output[0]]
    assert np.abs(want).max() > 1e-2  # not a degenerate comparison
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3 * np.abs(want).max())


def test_resnet50_with_its_light_weights_matches_onnxruntime() -> None:
    """The light model as it ships (every probability about 0.001), its softmax output on c:
    a GEMM micro-kernel that added C after its k loop passed the random-weights test above
    and made `make bench` report this model WRONG (errors of 1e-3 on outputs of 1e-3)."""
    import onnx.backend.test as backend_test

    path = Path(backend_test.__file__).parent / "data" / "light" / "light_resnet50.onnx"
    model = onnx.load(str(path))
    output = model.graph.output[0].name
    feeds = {"gpu_0/data_0": RNG.standard_normal((1, 3, 224, 224)).astype(np.float32)}
    want = _ort(path, feeds)[output]
    got = run_onnx(str(path), feeds, "c")[output]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * np.abs(want).max() + 1e-6)
