package dev.computeruse.core;

import java.util.Arrays;
import java.util.Map;

/** Strict params, as the host's schemas are (docs/protocol.md): unknown fields and wrong types are invalid_params. */
final class Params {
  private Params() {}

  /** Refuses any field not named. */
  static void only(Map<String, Object> params, String... names) throws RpcError {
    for (String k : params.keySet()) if (!Arrays.asList(names).contains(k)) throw new RpcError("invalid_params", "unknown parameter: " + k);
  }

  /** A string field; null when absent and not required. */
  static String string(Map<String, Object> params, String name, boolean required) throws RpcError {
    Object v = params.get(name);
    if (v == null && !required) return null;
    if (!(v instanceof String)) throw new RpcError("invalid_params", name + " must be a string");
    return (String) v;
  }

  /** A non-negative integer field, or `otherwise` when absent. */
  static long count(Map<String, Object> params, String name, long otherwise) throws RpcError {
    Object v = params.get(name);
    if (v == null) return otherwise;
    if (!(v instanceof Long) || ((Long) v).longValue() < 0) throw new RpcError("invalid_params", name + " must be a non-negative integer");
    return ((Long) v).longValue();
  }
}
