package dev.computeruse.core;

import java.util.Map;

/** One protocol method: params in, a JSON-able result out, or an RpcError. */
public interface Handler {
  Object handle(Map<String, Object> params) throws RpcError;
}
