// A PNG writer for 8-bit RGB pixels with nothing but mscorlib and System.dll: no System.Drawing (not referenced,
// and GDI+ would re-encode through another library). The zlib stream is written by hand around
// System.IO.Compression.DeflateStream (raw deflate): the two-byte header, the deflate data, the Adler-32 of the
// uncompressed bytes; each chunk carries the CRC-32 of its type and data. Every row is filter 0 (none), as the
// TypeScript writer (src/fallback/png.ts) does. test/unit/windows-capture.test.ts decodes the output byte-exact.
using System;
using System.IO;
using System.IO.Compression;

namespace ComputerUse.Windows
{
    public static class Png
    {
        private static readonly byte[] Signature = { 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a };
        private static uint[] crcTable;

        /// <summary>Encodes tightly packed RGB rows (3 bytes per pixel, top row first) as a PNG file.</summary>
        public static byte[] EncodeRgb(byte[] rgb, int width, int height)
        {
            if (width <= 0 || height <= 0 || rgb.Length != (long)width * height * 3)
                throw new ArgumentException("EncodeRgb: " + rgb.Length + " bytes for " + width + "x" + height);
            int stride = width * 3;
            byte[] raw = new byte[(long)(stride + 1) * height];
            for (int y = 0; y < height; y++) Buffer.BlockCopy(rgb, y * stride, raw, y * (stride + 1) + 1, stride);
            byte[] ihdr = new byte[13];
            PutUInt32(ihdr, 0, (uint)width);
            PutUInt32(ihdr, 4, (uint)height);
            ihdr[8] = 8;  // bit depth
            ihdr[9] = 2;  // colour type: RGB
            // compression 0 (deflate), filter method 0, no interlace
            MemoryStream png = new MemoryStream();
            png.Write(Signature, 0, Signature.Length);
            WriteChunk(png, "IHDR", ihdr);
            WriteChunk(png, "IDAT", Zlib(raw));
            WriteChunk(png, "IEND", new byte[0]);
            return png.ToArray();
        }

        /// <summary>A zlib stream (RFC 1950) of the bytes: header 0x78 0x9C, raw deflate, Adler-32 big-endian.</summary>
        public static byte[] Zlib(byte[] data)
        {
            MemoryStream ms = new MemoryStream();
            ms.WriteByte(0x78);  // deflate, 32K window
            ms.WriteByte(0x9C);  // default level; (0x78 * 256 + 0x9C) % 31 == 0
            using (DeflateStream d = new DeflateStream(ms, CompressionMode.Compress, true)) d.Write(data, 0, data.Length);
            byte[] adler = new byte[4];
            PutUInt32(adler, 0, Adler32(data));
            ms.Write(adler, 0, 4);
            return ms.ToArray();
        }

        public static uint Adler32(byte[] data)
        {
            const uint Mod = 65521;
            uint a = 1, b = 0;
            int i = 0;
            while (i < data.Length)
            {
                // 5552 bytes keep b below 2^32 before the modulo (zlib's NMAX).
                int end = Math.Min(data.Length, i + 5552);
                for (; i < end; i++) { a += data[i]; b += a; }
                a %= Mod;
                b %= Mod;
            }
            return (b << 16) | a;
        }

        public static uint Crc32(byte[] data, int offset, int count, uint crc)
        {
            if (crcTable == null)
            {
                uint[] t = new uint[256];
                for (uint n = 0; n < 256; n++)
                {
                    uint c = n;
                    for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
                    t[n] = c;
                }
                crcTable = t;
            }
            for (int i = offset; i < offset + count; i++) crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
            return crc;
        }

        private static void WriteChunk(Stream s, string type, byte[] data)
        {
            byte[] head = new byte[8];
            PutUInt32(head, 0, (uint)data.Length);
            for (int i = 0; i < 4; i++) head[4 + i] = (byte)type[i];
            uint crc = Crc32(head, 4, 4, 0xFFFFFFFFu);
            crc = Crc32(data, 0, data.Length, crc) ^ 0xFFFFFFFFu;
            byte[] tail = new byte[4];
            PutUInt32(tail, 0, crc);
            s.Write(head, 0, 8);
            s.Write(data, 0, data.Length);
            s.Write(tail, 0, 4);
        }

        private static void PutUInt32(byte[] b, int at, uint v)
        {
            b[at] = (byte)(v >> 24);
            b[at + 1] = (byte)(v >> 16);
            b[at + 2] = (byte)(v >> 8);
            b[at + 3] = (byte)v;
        }
    }
}
