/** Line-by-line reading of a file of any size: never the whole file as one string. */
import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 1 << 20;

/** Calls `onLine` with each line (1-based number; `last` for a final line without a newline). */
export function forEachLine(
  file: string,
  onLine: (line: string, number: number, last: boolean) => void,
): void {
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  let pending: Buffer[] = [];
  let number = 0;
  try {
    for (
      let read = readSync(fd, buffer, 0, CHUNK, null);
      read > 0;
      read = readSync(fd, buffer, 0, CHUNK, null)
    ) {
      let start = 0;
      for (
        let end = buffer.indexOf(10, start);
        end !== -1 && end < read;
        end = buffer.indexOf(10, start)
      ) {
        const piece = buffer.subarray(start, end);
        const line =
          pending.length === 0
            ? piece.toString("utf8")
            : Buffer.concat([...pending, piece]).toString("utf8");
        pending = [];
        onLine(line, ++number, false);
        start = end + 1;
      }
      if (start < read) pending.push(Buffer.from(buffer.subarray(start, read)));
    }
    if (pending.length > 0) onLine(Buffer.concat(pending).toString("utf8"), ++number, true);
  } finally {
    closeSync(fd);
  }
}
