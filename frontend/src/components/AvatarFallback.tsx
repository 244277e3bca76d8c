// What the stage shows without 3D: a small still figure and why.

interface Props {
  message: string
}

export function AvatarFallback({ message }: Props) {
  return (
    <div className="avatar-fallback" data-testid="avatar-fallback">
      <FigureIllustration />
      <p className="avatar-fallback-text">3D avatar unavailable — {message}</p>
    </div>
  )
}

/** A friendly round figure waving, in the theme's colours. */
function FigureIllustration() {
  return (
    <svg className="avatar-figure" viewBox="0 0 120 150" width="96" height="120" aria-hidden="true" focusable="false">
      <ellipse cx="60" cy="140" rx="34" ry="6" className="figure-shadow" />
      <path d="M38 132 L42 98 Q60 90 78 98 L82 132 Z" className="figure-body" />
      <path d="M42 100 Q30 112 28 126" className="figure-limb" />
      <path d="M78 100 Q92 88 96 70" className="figure-limb" />
      <circle cx="97" cy="66" r="5" className="figure-body" />
      <circle cx="60" cy="64" r="26" className="figure-head" />
      <circle cx="51" cy="61" r="3" className="figure-eye" />
      <circle cx="69" cy="61" r="3" className="figure-eye" />
      <path d="M50 72 Q60 80 70 72" className="figure-smile" />
    </svg>
  )
}
