"""ONNX import: the `plaidc import` command, MODEL.onnx given to run and compile, located
errors, and models of our own (a small CNN, a transformer block) compared with onnxruntime.

onnxruntime is the oracle (the `dev` extra installs it); the comparisons with it are skipped
where it is absent.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from plaidc.onnx import import_model  # noqa: E402
from plaidc.onnx.runner import run_onnx  # noqa: E402

from .support.onnx_models import model_of  # noqa: E402

RNG = np.random.default_rng(7)


def plaidc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from plaidc.cli import plaidc_main; plaidc_main()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def weight(name: str, *shape: int, scale: float = 0.3) -> object:
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32), name)


def int_const(name: str, values: list[int]) -> object:
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def save(
    tmp_path: Path, nodes: list, inputs: list, outputs: list, inits: list, opset: int = 17
) -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    model = model_of(graph, opset)
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    return path


def small_cnn(tmp_path: Path) -> Path:
    """Conv (padded, strided, grouped) + BatchNorm + Relu + MaxPool + GlobalAveragePool +
    Flatten + Gemm + Softmax, with a symbolic batch size and a dynamic Reshape."""
    x = helper.make_tensor_value_info("gpu_0/data_0", TensorProto.FLOAT, ["N", 4, 12, 12])
    y = helper.make_tensor_value_info("prob:0", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Conv", ["gpu_0/data_0", "w1", "b1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c1", "s", "bb", "m", "v"], ["bn"], name="bn1"),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2", group=2, auto_pad="SAME_UPPER",
                         kernel_shape=[3, 3]),
        helper.make_node("MaxPool", ["c2"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p"], ["g"]),
        helper.make_node("Shape", ["g"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["flat_shape"], axis=0),
        helper.make_node("Reshape", ["g", "flat_shape"], ["f"]),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["prob:0"], axis=1),
    ]  # fmt: skip
    inits = [
        weight("w1", 8, 4, 3, 3), weight("b1", 8),
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, 8).astype(np.float32), "s"),
        weight("bb", 8), weight("m", 8),
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, 8).astype(np.float32), "v"),
        weight("w2", 6, 4, 3, 3), weight("wf", 5, 6), weight("bf", 5),
        numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"),
        int_const("axes0", [0]), int_const("minus1", [-1]),
    ]  # fmt: skip
    return save(tmp_path, nodes, [x], [y], inits, opset=13)


def transformer_block(tmp_path: Path) -> Path:
    """LayerNorm, self-attention (2 heads, reshape + transpose), GELU (Erf form), residuals."""
    seq, hidden, heads = 6, 8, 2
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, seq, hidden])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    split_heads = [1, seq, heads, hidden // heads]
    nodes = [
        helper.make_node("LayerNormalization", ["x", "g1", "b1"], ["ln"], axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["ln", "wq"], ["q"]),
        helper.make_node("MatMul", ["ln", "wk"], ["k"]),
        helper.make_node("MatMul", ["ln", "wv"], ["v"]),
        helper.make_node("Reshape", ["q", "heads_shape"], ["q4"]),
        helper.make_node("Reshape", ["k", "heads_shape"], ["k4"]),
        helper.make_node("Reshape", ["v", "heads_shape"], ["v4"]),
        helper.make_node("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
        helper.make_node("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("Transpose", ["v4"], ["vt"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qt", "kt"], ["scores"]),
        helper.make_node("Div", ["scores", "sqrt_d"], ["scaled"]),
        helper.make_node("Softmax", ["scaled"], ["attn"], axis=-1),
        helper.make_node("MatMul", ["attn", "vt"], ["ctx"]),
        helper.make_node("Transpose", ["ctx"], ["ctx_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ctx_t", "hidden_shape"], ["merged"]),
        helper.make_node("MatMul", ["merged", "wo"], ["proj"]),
        helper.make_node("Add", ["proj", "x"], ["res1"]),
        helper.make_node("LayerNormalization", ["res1", "g2", "b2"], ["ln2"], axis=-1),
        helper.make_node("MatMul", ["ln2", "w_up"], ["up"]),
        helper.make_node("Div", ["up", "sqrt2"], ["up_scaled"]),
        helper.make_node("Erf", ["up_scaled"], ["erf"]),
        helper.make_node("Add", ["erf", "one"], ["erf1"]),
        helper.make_node("Mul", ["up", "erf1"], ["gelu_2x"]),
        helper.make_node("Mul", ["gelu_2x", "half"], ["gelu"]),
        helper.make_node("MatMul", ["gelu", "w_down"], ["down"]),
        helper.make_node("Add", ["down", "res1"], ["y"]),
    ]
    scalar = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float32), name)  # noqa: E731
    inits = [
        weight("g1", hidden, scale=1.0), weight("b1", hidden),
        weight("g2", hidden, scale=1.0), weight("b2", hidden),
        weight("wq", hidden, hidden), weight("wk", hidden, hidden), weight("wv", hidden, hidden),
        weight("wo", hidden, hidden), weight("w_up", hidden, 4 * hidden),
        weight("w_down", 4 * hidden, hidden),
        int_const("heads_shape", split_heads), int_const("hidden_shape", [1, seq, hidden]),
        scalar("sqrt_d", np.sqrt(hidden // heads)), scalar("sqrt2", np.sqrt(2.0)),
        scalar("one", 1.0), scalar("half", 0.5),
    ]  # fmt: skip
    return save(tmp_path, nodes, [x], [y], inits)


def ort_run(path: Path, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


MODELS = {
    "cnn": (small_cnn, {"gpu_0/data_0": (2, 4, 12, 12)}),
    "transformer": (transformer_block, {"x": (1, 6, 8)}),
}


@pytest.mark.parametrize("target", ["interp", "c", "llvm", "opencl", "npu"])
@pytest.mark.parametrize("which", sorted(MODELS))
def test_models_match_onnxruntime(tmp_path: Path, which: str, target: str) -> None:
    build, shapes = MODELS[which]
    path = build(tmp_path)
    feeds = {n: RNG.standard_normal(s).astype(np.float32) for n, s in shapes.items()}
    want = ort_run(path, feeds)
    got = run_onnx(str(path), feeds, target)
    model = onnx.load(str(path))
    for proto, expected in zip(model.graph.output, want, strict=True):
        np.testing.assert_allclose(got[proto.name], expected, rtol=1e-3, atol=1e-5)


def test_import_writes_tile_and_weights(tmp_path: Path) -> None:
    path = small_cnn(tmp_path)
    result = plaidc("import", str(path), "-D", "N=2", "-o", "cnn.tile", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "cnn.tile").read_text()
    assert "// conv1 (Conv)" in text and "// bn1 (BatchNormalization)" in text
    assert "Gpu_0_data_0[N, 4, 12, 12]: fp32" in text
    assert "reshape(" in text and "Shape" not in text.split("{", 1)[1]  # folded shape chain
    weights = np.load(tmp_path / "cnn.weights.npz")
    # convolution weights are stored (ky, kx, input channel, output channel)
    w1 = numpy_helper.to_array(next(i for i in onnx.load(path).graph.initializer if i.name == "w1"))
    assert "W1" in weights and np.array_equal(weights["W1"], w1.transpose(2, 3, 1, 0))
    # the Tile file runs with its weights as inputs
    for name in weights.files:
        np.save(tmp_path / f"{name}.npy", weights[name])
    args = [f"--input={n}={n}.npy" for n in weights.files]
    run = plaidc("run", "cnn.tile", "-D", "N=2", "--random-inputs", "0", *args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Prob_0: float32[2, 5]" in run.stdout


def test_run_onnx_names_inputs_and_outputs(tmp_path: Path) -> None:
    path = small_cnn(tmp_path)
    x = RNG.standard_normal((3, 4, 12, 12)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    result = plaidc(
        "run", "model.onnx", "--input", "gpu_0/data_0=x.npy", "-t", "c", "--check",
        "--output-dir", "out", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "check: outputs match the interpreter" in result.stderr
    written = np.load(tmp_path / "out" / "prob_0.npy")
    if pytest.importorskip("onnxruntime"):
        np.testing.assert_allclose(written, ort_run(path, {"gpu_0/data_0": x})[0], rtol=1e-3)


def test_compile_onnx_binds_symbolic_dims(tmp_path: Path) -> None:
    small_cnn(tmp_path)
    result = plaidc("compile", "model.onnx", "-D", "N=1", "-t", "c", "-o", "m.c", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "m.c").read_text().strip()
    unbound = plaidc("compile", "model.onnx", "-t", "c", cwd=tmp_path)
    assert unbound.returncode == 1
    assert "model.onnx: error: input 'gpu_0/data_0' dimension 0 is symbolic ('N')" in unbound.stderr
    assert "-D N=SIZE" in unbound.stderr and "Traceback" not in unbound.stderr


def test_unsupported_op_is_a_located_error(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Det", ["r"], ["y"], name="det0"),
    ]
    save(tmp_path, nodes, [x], [y], [])
    result = plaidc("import", "model.onnx", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "model.onnx: error: node 1 'det0' (Det): this operator is not supported"
    )


def test_dynamic_shape_operand_is_a_located_error(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    save(tmp_path, [helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [x, s], [y], [])
    result = plaidc("import", "model.onnx", cwd=tmp_path)
    assert result.returncode == 1
    assert "node 0 'r' (Reshape): input 1 (shape) is computed at run time" in result.stderr


def test_not_a_model_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "bad.onnx").write_bytes(b"\x08\x01garbage\xff")
    result = plaidc("import", "bad.onnx", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.startswith("bad.onnx: error:")
    assert "Traceback" not in result.stderr


def test_shape_option_names_onnx_inputs(tmp_path: Path) -> None:
    small_cnn(tmp_path)
    result = plaidc("import", "model.onnx", "--shape", "gpu_0/data_0=fp32[5,4,12,12]", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # (activations after a convolution are channels-last: plaidc.onnx.layout)
    assert "MaxPool[n, x0, x1, c : 5, 3, 3, 6]" in (tmp_path / "model.tile").read_text()


def test_erf_approximation_is_accurate(tmp_path: Path) -> None:
    from math import erf

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [401])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    path = save(tmp_path, [helper.make_node("Erf", ["x"], ["y"])], [x], [y], [])
    grid = np.linspace(-5, 5, 401).astype(np.float32)
    got = run_onnx(str(path), {"x": grid})["y"]
    want = np.array([erf(float(v)) for v in grid])
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=3e-7)


def test_bert_size_graph_imports_fast() -> None:
    """12 layers of hidden 768 (BERT-base's weights, ~85M parameters' worth of MatMuls)."""
    hidden, seq, layers = 768, 128, 12
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, seq, hidden])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes, inits, last = [], [], "x"
    zeros = np.zeros((hidden, hidden), dtype=np.float32)
    for layer in range(layers):
        for k in range(8):  # q, k, v, o and the 4x-wide feed-forward as 4 square blocks
            name = f"l{layer}_{k}"
            inits.append(numpy_helper.from_array(zeros, f"w_{name}"))
            nodes.append(helper.make_node("MatMul", [last, f"w_{name}"], [f"mm_{name}"]))
            nodes.append(helper.make_node("Add", [f"mm_{name}", last], [f"add_{name}"]))
            last = f"add_{name}"
        nodes.append(
            helper.make_node("LayerNormalization", [last, "g", "b"], [f"ln{layer}"], axis=-1)
        )
        last = f"ln{layer}"
    inits += [numpy_helper.from_array(np.ones(hidden, np.float32), n) for n in ("g", "b")]
    nodes.append(helper.make_node("Identity", [last], ["y"]))
    graph = helper.make_graph(nodes, "bert_size", [x], [y], inits)
    model = model_of(graph, 17)
    result = import_model("bert.onnx", model=model)
    assert result.seconds < 5.0
    assert len(result.weights) == layers * 8 + 2


@pytest.mark.parametrize("name", ["shufflenet"])
def test_light_models_match_onnxruntime(name: str) -> None:
    """The light models the onnx package ships (real architectures, light weights)."""
    import onnx.backend.test as backend_test

    path = Path(backend_test.__file__).parent / "data" / "light" / f"light_{name}.onnx"
    model = onnx.load(str(path))
    weights = {t.name for t in model.graph.initializer}
    (data,) = [i for i in model.graph.input if i.name not in weights]
    shape = [d.dim_value for d in data.type.tensor_type.shape.dim]
    feeds = {data.name: RNG.random(shape, dtype=np.float32)}
    got = run_onnx(str(path), feeds, "interp")
    (want,) = ort_run(path, feeds)
    np.testing.assert_allclose(got[model.graph.output[0].name], want, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("target", ["interp", "c"])
def test_empty_tensors_are_known_at_import(target: str) -> None:
    """A zero-size input, slice and split output have no values: they are known at import,
    a reduction over one gives its identity, and the non-empty outputs still run."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    e = helper.make_tensor_value_info("e", TensorProto.FLOAT, [2, 0])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in "abcd"]
    nodes = [
        helper.make_node("Slice", ["x", "starts", "ends", "axes0"], ["a"]),  # rows 5.. of 2
        helper.make_node("Split", ["x", "sizes"], ["b", "c"], axis=1),  # sizes 0 and 4
        helper.make_node("ReduceSum", ["e", "axes"], ["s"], keepdims=1),  # [2, 1] zeros
        helper.make_node("Add", ["x", "s"], ["d0"]),
        helper.make_node("Concat", ["d0", "e"], ["d"], axis=1),
    ]
    inits = [int_const("starts", [5]), int_const("ends", [9]), int_const("axes0", [0]),
             int_const("axes", [1]), int_const("sizes", [0, 4])]  # fmt: skip
    x_val = RNG.standard_normal((2, 4)).astype(np.float32)
    graph = helper.make_graph(nodes, "g", [x, e], outs, inits)
    model = model_of(graph, 18)
    feeds = {"x": x_val, "e": np.zeros((2, 0), np.float32)}
    got = run_onnx("m.onnx", feeds, target, model=model)
    assert got["a"].shape == (0, 4) and got["b"].shape == (2, 0)
    np.testing.assert_array_equal(got["c"], x_val)
    np.testing.assert_allclose(got["d"], x_val, rtol=1e-6)


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize(
    "mode, attrs, scales",
    [
        ("cubic", {}, [1.0, 1.0, 1.7, 0.6]),
        ("cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}, [1.0, 1.0, 0.45, 2.3]),
        ("cubic", {"antialias": 1}, [1.0, 1.0, 0.4, 0.7]),
        ("linear", {"antialias": 1}, [1.0, 1.0, 0.3, 1.5]),
        ("cubic", {"coordinate_transformation_mode": "align_corners"}, [1.0, 1.0, 2.0, 1.0]),
    ],
)
def test_resize_kernels_match_onnxruntime(
    tmp_path: Path, mode: str, attrs: dict, scales: list[float], target: str
) -> None:
    """Cubic and antialiased Resize (one weight matrix per axis) on odd shapes."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 9, 7])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode=mode, **attrs)
    scale = numpy_helper.from_array(np.array(scales, dtype=np.float32), "scales")
    path = save(tmp_path, [node], [x], [y], [scale], opset=18)
    feeds = {"x": RNG.standard_normal((1, 2, 9, 7)).astype(np.float32)}
    (want,) = ort_run(path, feeds)
    got = run_onnx(str(path), feeds, target)["y"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize("storage_order", [0, 1])
def test_maxpool_indices_match_onnxruntime(tmp_path: Path, storage_order: int, target: str) -> None:
    """MaxPool's Indices output: padded, strided windows over an odd shape, with ties (the
    input is rounded to few values), both storage orders."""
    shape = (2, 3, 7, 5)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))
    outs = [helper.make_tensor_value_info(n, t, None) for n, t in
            (("y", TensorProto.FLOAT), ("i", TensorProto.INT64))]  # fmt: skip
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], kernel_shape=[3, 2], strides=[2, 1],
                            pads=[1, 0, 1, 1], storage_order=storage_order)  # fmt: skip
    path = save(tmp_path, [node], [x], outs, [], opset=12)
    feeds = {"x": np.round(RNG.standard_normal(shape) * 2).astype(np.float32)}
    want_y, want_i = ort_run(path, feeds)
    got = run_onnx(str(path), feeds, target)
    np.testing.assert_array_equal(got["y"], want_y)
    np.testing.assert_array_equal(got["i"], want_i)


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_resize_crop_and_extrapolate_match_onnxruntime(
    tmp_path: Path, mode: str, target: str
) -> None:
    """tf_crop_and_resize: a crop reaching outside the input on both axes, filled with the
    extrapolation value there."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], mode=mode,
                            coordinate_transformation_mode="tf_crop_and_resize",
                            extrapolation_value=-3.5)  # fmt: skip
    roi = numpy_helper.from_array(
        np.array([0, 0, -0.2, 0.3, 1, 1, 0.9, 1.4], dtype=np.float32), "roi"
    )
    path = save(tmp_path, [node], [x], [y], [roi, int_const("sizes", [1, 2, 7, 4])], opset=13)
    feeds = {"x": RNG.standard_normal((1, 2, 6, 5)).astype(np.float32)}
    (want,) = ort_run(path, feeds)
    got = run_onnx(str(path), feeds, target)["y"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_cli_writes_empty_outputs(tmp_path: Path) -> None:
    """`plaidc run` writes an output with no elements beside the computed ones; a model whose
    outputs are all empty has nothing to compile: a located error."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("a", "b")]
    nodes = [helper.make_node("Slice", ["x", "s", "e", "ax"], ["a"]),
             helper.make_node("Relu", ["x"], ["b"])]  # fmt: skip
    inits = [int_const("s", [5]), int_const("e", [9]), int_const("ax", [0])]
    save(tmp_path, nodes, [x], outs, inits)
    np.save(tmp_path / "x.npy", np.full((2, 4), -1.0, np.float32))
    result = plaidc("run", "model.onnx", "--input", "x=x.npy", "--output-dir", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert np.load(tmp_path / "o" / "a.npy").shape == (0, 4)
    np.testing.assert_array_equal(np.load(tmp_path / "o" / "b.npy"), np.zeros((2, 4)))
    save(tmp_path, nodes[:1], [x], outs[:1], inits)
    result = plaidc("import", "model.onnx", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "model.onnx: error: every output has no elements ('a'): there is nothing to compile"
    )
