// Enough for the blob API's one-file uploads, with no dependency; undefined for anything malformed.

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) return undefined;
  for (;;) {
    position += delimiter.length;
    // "--" right after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) return parts;
    if (body[position] !== 0x0d || body[position + 1] !== 0x0a) return undefined;
    const headerStart = position + 2;
    const headerEnd = body.indexOf("\r\n\r\n", headerStart);
    if (headerEnd < 0) return undefined;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return undefined;
    const part = parseHeaders(body.subarray(headerStart, headerEnd).toString("latin1"));
    if (!part) return undefined;
    parts.push({ ...part, data: body.subarray(headerEnd + 4, next) });
    position = next + 2;
  }
}

function parseHeaders(block: string): Omit<MultipartPart, "data"> | undefined {
  let name: string | undefined;
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) return undefined;
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === "content-disposition") {
      name = /;\s*name="([^"]*)"/i.exec(value)?.[1];
      filename = /;\s*filename="([^"]*)"/i.exec(value)?.[1];
    } else if (header === "content-type") {
      contentType = value.split(";")[0]!.trim().toLowerCase();
    }
  }
  if (name === undefined) return undefined;
  return {
    name,
    ...(filename !== undefined ? { filename } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
}
