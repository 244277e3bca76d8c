// A cheap check, in the main chunk, whether WebGL2 (what three.js needs) is
// available, so a browser without it never downloads three.js.

export function hasWebGL2(): boolean {
  try {
    const canvas = document.createElement('canvas')
    const gl = canvas.getContext('webgl2')
    if (gl === null) return false
    gl.getExtension('WEBGL_lose_context')?.loseContext()
    return true
  } catch {
    return false
  }
}
