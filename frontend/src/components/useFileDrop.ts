// Files dropped anywhere on an area (the chat): handlers for its element and
// whether files are being dragged over it now (to show the drop target).
// Only a drag that carries files counts: dragging text or a link does nothing.
// Files dropped beside the area are ignored rather than opened by the browser
// in place of the app.

import { useEffect, useRef, useState, type DragEvent } from 'react'

/** Whether a drag carries files (its types list "Files"; their names are only known at the drop). */
export function carriesFiles(data: Pick<DataTransfer, 'types'> | null): boolean {
  return data !== null && Array.from(data.types).includes('Files')
}

export interface FileDrop {
  dragging: boolean
  handlers: {
    onDragEnter(e: DragEvent): void
    onDragOver(e: DragEvent): void
    onDragLeave(e: DragEvent): void
    onDrop(e: DragEvent): void
  }
}

export function useFileDrop(enabled: boolean, onFiles: (files: File[]) => void): FileDrop {
  const [dragging, setDragging] = useState(false)
  // dragenter and dragleave fire for every child crossed: count them.
  const depth = useRef(0)
  const reset = () => {
    depth.current = 0
    setDragging(false)
  }
  useEffect(() => {
    const miss = (e: Event) => {
      const drag = e as globalThis.DragEvent
      if (!carriesFiles(drag.dataTransfer)) return
      drag.preventDefault()
      if (e.type === 'drop') {
        depth.current = 0
        setDragging(false)
      }
    }
    window.addEventListener('dragover', miss)
    window.addEventListener('drop', miss)
    return () => {
      window.removeEventListener('dragover', miss)
      window.removeEventListener('drop', miss)
    }
  }, [])
  return {
    dragging: dragging && enabled,
    handlers: {
      onDragEnter(e) {
        if (!enabled || !carriesFiles(e.dataTransfer)) return
        e.preventDefault()
        depth.current++
        setDragging(true)
      },
      onDragOver(e) {
        if (!enabled || !carriesFiles(e.dataTransfer)) return
        e.preventDefault() // (allows the drop)
        e.dataTransfer.dropEffect = 'copy'
      },
      onDragLeave(e) {
        if (!enabled || !carriesFiles(e.dataTransfer)) return
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setDragging(false)
      },
      onDrop(e) {
        if (!enabled || !carriesFiles(e.dataTransfer)) return
        e.preventDefault()
        reset()
        const files = Array.from(e.dataTransfer.files)
        if (files.length > 0) onFiles(files)
      },
    },
  }
}
