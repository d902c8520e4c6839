// A bzip2 decompressor (the format of the start's archives, see web/build.py), so that
// python-start.mjs unpacks them while the runtime is still downloading, before Python is up,
// instead of with Python's bz2 once it is. Every block's CRC is checked: bytes that do not
// decompress to what was packed throw, and the caller falls back to Python's bz2.

class Bits {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;  // the next byte
    this.buffer = 0;  // its low `count` bits not read yet
    this.count = 0;
  }

  read(count) {  // (count <= 24)
    while (this.count < count) {
      if (this.at >= this.bytes.length) throw new Error("bzip2: the data ends too soon");
      this.buffer = ((this.buffer << 8) | this.bytes[this.at++]) >>> 0;
      this.count += 8;
    }
    this.count -= count;
    const value = (this.buffer >>> this.count) & ((1 << count) - 1);
    this.buffer &= (1 << this.count) - 1;
    return value;
  }

  read32() {
    return ((this.read(16) << 16) | this.read(16)) >>> 0;
  }
}

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n << 24;
  for (let k = 0; k < 8; k += 1) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

// The canonical Huffman code of one table, as limit/base/symbols by code length.
function huffman(lengths) {
  const min = Math.min(...lengths), max = Math.max(...lengths);
  const symbols = [], limit = [], base = [];
  let code = 0;
  for (let length = min; length <= max; length += 1) {
    base[length] = code - symbols.length;
    lengths.forEach((l, symbol) => { if (l === length) { symbols.push(symbol); code += 1; } });
    limit[length] = code - 1;
    code <<= 1;
  }
  return { min, max, symbols, limit, base };
}

function decodeSymbol(bits, table) {
  let length = table.min, code = bits.read(length);
  while (length <= table.max) {
    if (code <= table.limit[length]) return table.symbols[code - table.base[length]];
    code = (code << 1) | bits.read(1);
    length += 1;
  }
  throw new Error("bzip2: a bad Huffman code");
}

// One block: its bytes appended to `out` (an array of Uint8Array); returns its CRC.
function block(bits, blockSize, out) {
  const crc = bits.read32();
  if (bits.read(1)) throw new Error("bzip2: randomised blocks are not supported");
  const origin = bits.read(24);
  const used = [];
  const groups = bits.read(16);
  for (let i = 0; i < 16; i += 1) {
    if (groups & (0x8000 >>> i)) {
      const present = bits.read(16);
      for (let j = 0; j < 16; j += 1) if (present & (0x8000 >>> j)) used.push(i * 16 + j);
    }
  }
  const alphabet = used.length + 2;
  const tableCount = bits.read(3), selectorCount = bits.read(15);
  if (tableCount < 2 || tableCount > 6 || !selectorCount) throw new Error("bzip2: a bad block");
  const order = Array.from({ length: tableCount }, (_, i) => i);
  const selectors = new Uint8Array(selectorCount);
  for (let i = 0; i < selectorCount; i += 1) {
    let j = 0;
    while (bits.read(1)) if (++j >= tableCount) throw new Error("bzip2: a bad selector");
    const table = order[j];
    order.splice(j, 1);
    order.unshift(table);
    selectors[i] = table;
  }
  const tables = [];
  for (let t = 0; t < tableCount; t += 1) {
    const lengths = [];
    let length = bits.read(5);
    for (let s = 0; s < alphabet; s += 1) {
      while (bits.read(1)) length += bits.read(1) ? -1 : 1;
      if (length < 1 || length > 20) throw new Error("bzip2: a bad code length");
      lengths.push(length);
    }
    tables.push(huffman(lengths));
  }
  // Huffman, then move-to-front and the runs of its first symbol (RUNA, RUNB)
  const front = Uint8Array.from(used.keys());
  const counts = new Int32Array(256);
  const next = new Uint32Array(blockSize);
  let size = 0, run = 0, runBit = 1, decoded = 0, table = null;
  for (;;) {
    if (decoded % 50 === 0) {
      if (decoded / 50 >= selectorCount) throw new Error("bzip2: too many symbols");
      table = tables[selectors[decoded / 50]];
    }
    decoded += 1;
    const symbol = decodeSymbol(bits, table);
    if (symbol <= 1) {
      run += runBit << symbol;
      runBit <<= 1;
      continue;
    }
    if (run) {
      const byte = used[front[0]];
      if (size + run > blockSize) throw new Error("bzip2: a block too long");
      counts[byte] += run;
      next.fill(byte, size, size + run);
      size += run;
      run = 0;
      runBit = 1;
    }
    if (symbol === alphabet - 1) break;
    const index = symbol - 1, value = front[index];
    front.copyWithin(1, 0, index);
    front[0] = value;
    if (size >= blockSize) throw new Error("bzip2: a block too long");
    counts[used[value]] += 1;
    next[size++] = used[value];
  }
  if (origin >= size) throw new Error("bzip2: a bad origin");
  // the inverse Burrows-Wheeler transform: each entry keeps its byte in its low 8 bits
  const starts = new Int32Array(256);
  for (let i = 1; i < 256; i += 1) starts[i] = starts[i - 1] + counts[i - 1];
  for (let i = 0; i < size; i += 1) next[starts[next[i] & 0xff]++] |= i << 8;
  // then the first run-length stage: four equal bytes are followed by a count of more
  const bytes = [];
  let chunk = new Uint8Array(Math.min(size * 2, 1 << 20)), length = 0, blockCrc = 0xffffffff;
  const put = (byte) => {
    if (length === chunk.length) {
      bytes.push(chunk);
      chunk = new Uint8Array(chunk.length * 2);
      length = 0;
    }
    chunk[length++] = byte;
    blockCrc = ((blockCrc << 8) ^ CRC_TABLE[((blockCrc >>> 24) ^ byte) & 0xff]) >>> 0;
  };
  let position = next[origin] >>> 8, last = -1, same = 0;
  for (let i = 0; i < size; i += 1) {
    const entry = next[position];
    const byte = entry & 0xff;
    position = entry >>> 8;
    if (same === 4) {
      for (let k = 0; k < byte; k += 1) put(last);
      same = 0;
      last = -1;
      continue;
    }
    same = byte === last ? same + 1 : 1;
    last = byte;
    put(byte);
  }
  bytes.push(chunk.subarray(0, length));
  out.push(...bytes);
  if ((~blockCrc >>> 0) !== crc) throw new Error("bzip2: a block's CRC does not match");
  return crc;
}

/** The bytes a bzip2 stream (`data`, a Uint8Array) holds; throws if it is damaged. */
export function bunzip2(data) {
  const bits = new Bits(data);
  if (bits.read(24) !== 0x425a68) throw new Error("bzip2: not a bzip2 stream");
  const level = bits.read(8) - 0x30;
  if (level < 1 || level > 9) throw new Error("bzip2: a bad block size");
  const out = [];
  let streamCrc = 0;
  for (;;) {
    const high = bits.read(24), low = bits.read(24);
    if (high === 0x314159 && low === 0x265359) {
      const crc = block(bits, level * 100000, out);
      streamCrc = (((streamCrc << 1) | (streamCrc >>> 31)) ^ crc) >>> 0;
    } else if (high === 0x177245 && low === 0x385090) {
      if (bits.read32() !== streamCrc) throw new Error("bzip2: the stream's CRC does not match");
      break;
    } else {
      throw new Error("bzip2: a bad block header");
    }
  }
  const result = new Uint8Array(out.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of out) {
    result.set(part, at);
    at += part.length;
  }
  return result;
}

// As a worker (python-start.mjs starts this module as one): each message is the address of
// a bzip2 file and a port. The worker fetches it at once (its own request, which needs
// nothing of the page's main thread, busy starting Python) and answers with its
// decompressed bytes ({ tar }), its bytes as fetched when they do not decompress
// ({ data }), or { error }; a message of bytes (an ArrayBuffer: later.tar.bz2, which the
// page fetched) is answered the same. It decompresses as soon as the bytes are there: since
// Python's start no longer compiles the standard library (python-stdlib.zip), Python was up
// before a decompression that waited for Python's start to begin had ended.
if (globalThis.WorkerGlobalScope && self.location.href === import.meta.url) {
  self.onmessage = async (event) => {
    const [port] = event.ports;
    let data = event.data;
    if (typeof data === "string") {
      try {
        const response = await fetch(data);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        data = await response.arrayBuffer();
      } catch (error) {
        port.postMessage({ error: String(error) });
        return;
      }
    }
    try {
      const tar = bunzip2(new Uint8Array(data));
      port.postMessage({ tar }, [tar.buffer]);
    } catch (error) {
      port.postMessage({ data }, [data]);
    }
  };
}
