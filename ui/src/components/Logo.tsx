// Satchel's mark.

export function Logo() {
  return (
    <div className="logo" aria-hidden="true">
      <svg viewBox="0 0 1024 1024">
        <path d="M382 330 q0 -110 130 -110 q130 0 130 110" fill="none" stroke="#fff" strokeWidth="56" strokeLinecap="round" />
        <rect x="232" y="330" width="560" height="470" rx="96" fill="#fff" />
        <rect x="232" y="430" width="560" height="70" fill="#dcd8ff" />
        <circle cx="512" cy="500" r="62" fill="#5b4cf5" />
      </svg>
    </div>
  );
}
