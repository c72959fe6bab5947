// Brotli for the build (builder/compress.py runs it): Node's zlib.  Reads a JSON list of
// [source, destination, quality] on its standard input and writes each destination; the
// same bytes in give the same bytes out.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import zlib from "node:zlib";

const jobs = JSON.parse(readFileSync(0, "utf8"));
for (const [source, destination, quality] of jobs) {
  const data = readFileSync(source);
  const packed = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 22,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(destination + ".tmp", packed);
  renameSync(destination + ".tmp", destination);
}
