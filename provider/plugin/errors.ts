import { anyproto, grpc, type Props, provproto, statusproto } from "./wire";

/** An error carrying `id` (failedButRecorded) becomes "initialization failed", so state keeps the resource. */
export function errorStatus(
  err: unknown,
  seal: (properties: Props) => unknown,
): { code: number; details: string; metadata: unknown } {
  const error = err as Error & { id?: string; properties?: Props; reasons?: string[] };
  const metadata = new grpc.Metadata();
  if (error.id) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(seal(error.properties ?? {}));
    detail.setReasonsList(error.reasons ?? [error.message]);
    const packed = new anyproto.Any();
    packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(error.message);
    status.addDetails(packed);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: error.message ?? String(err), metadata };
}
