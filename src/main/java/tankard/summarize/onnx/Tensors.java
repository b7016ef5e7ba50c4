package tankard.summarize.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;

/** A float tensor copied out of ONNX Runtime: its values and shape, the first dimension the batch. */
record Tensors(float[] values, long[] shape) {
    static Tensors of(OrtSession.Result result, String name) throws OrtException {
        OnnxValue value = result.get(name).orElseThrow(() -> new IllegalStateException("The model has no output " + name));
        OnnxTensor tensor = (OnnxTensor) value;
        FloatBuffer buffer = tensor.getFloatBuffer();
        float[] values = new float[buffer.remaining()];
        buffer.get(values);
        return new Tensors(values, ((TensorInfo) tensor.getInfo()).getShape());
    }

    /** The rows picked by {@code rows} (a beam's parent, or the one row repeated to fill the beams). */
    Tensors select(int[] rows) {
        int rowSize = values.length / (int) shape[0];
        float[] picked = new float[rows.length * rowSize];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(values, rows[i] * rowSize, picked, i * rowSize, rowSize);
        }
        long[] newShape = shape.clone();
        newShape[0] = rows.length;
        return new Tensors(picked, newShape);
    }

    OnnxTensor tensor(OrtEnvironment env) throws OrtException {
        return OnnxTensor.createTensor(env, FloatBuffer.wrap(values), shape);
    }

    static OnnxTensor longs(OrtEnvironment env, long[] values, long... shape) throws OrtException {
        return OnnxTensor.createTensor(env, LongBuffer.wrap(values), shape);
    }

    static int[] repeat(int row, int times) {
        int[] rows = new int[times];
        java.util.Arrays.fill(rows, row);
        return rows;
    }
}
