// Reading the stage's screenshots in the e2e tests: a minimal PNG decoder and
// how much of the stage's middle is drawn (emote.e2e.ts, avatar.e2e.ts).

import { inflateSync } from 'node:zlib'

export interface Image {
  width: number
  height: number
  /** RGBA, row by row. */
  rgba: Uint8Array
}

/**
 * The share of pixels in the middle of the stage (where the character stands)
 * that differ clearly from the stage's background, read at its top-left corner.
 */
export function drawnShare(img: Image): number {
  const px = (x: number, y: number) => img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)
  const bg = [...px(2, 2)]
  const x0 = Math.floor(img.width * 0.3)
  const x1 = Math.ceil(img.width * 0.7)
  const y0 = Math.floor(img.height * 0.1)
  const y1 = Math.ceil(img.height * 0.8)
  let differing = 0
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [r = 0, g = 0, b = 0] = px(x, y)
      if (Math.abs(r - (bg[0] ?? 0)) + Math.abs(g - (bg[1] ?? 0)) + Math.abs(b - (bg[2] ?? 0)) > 40) differing++
    }
  }
  return differing / ((x1 - x0) * (y1 - y0))
}

/** A minimal PNG reader for Chromium's screenshots: 8-bit RGB or RGBA, not interlaced. */
export function decodePng(png: Buffer): Image {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]]
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`)
      }
      channels = colour === 6 ? 4 : 3
    } else if (type === 'IDAT') {
      data.push(body)
    } else if (type === 'IEND') {
      break
    }
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  const pixels = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (pixels[y * stride + i - channels] ?? 0) : 0
      const b = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0
      const c = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] ?? 0) : 0
      pixels[y * stride + i] = ((line[i] ?? 0) + predict(filter ?? 0, a, b, c)) & 0xff
    }
  }
  const rgba = new Uint8Array(width * height * 4)
  for (let p = 0; p < width * height; p++) {
    for (let ch = 0; ch < 3; ch++) rgba[p * 4 + ch] = pixels[p * channels + ch] ?? 0
    rgba[p * 4 + 3] = channels === 4 ? (pixels[p * channels + 3] ?? 255) : 255
  }
  return { width, height, rgba }
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0
    case 1:
      return a
    case 2:
      return b
    case 3:
      return (a + b) >> 1
    case 4: {
      const p = a + b - c
      const pa = Math.abs(p - a)
      const pb = Math.abs(p - b)
      const pc = Math.abs(p - c)
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
    default:
      throw new Error(`bad PNG filter ${filter}`)
  }
}
