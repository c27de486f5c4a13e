package dev.computeruse.core;

/** An error answered to the host: the protocol's string code (stale_ref, unsupported, …) and what to do. */
public final class RpcError extends Exception {
  private static final long serialVersionUID = 1L;
  /** The protocol error code carried in error.data.code. */
  public final String code;

  public RpcError(String code, String message) { super(message); this.code = code; }
}
