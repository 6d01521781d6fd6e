export function App() {
  return (
    <main className="splash">
      <div className="logo" aria-hidden="true">S</div>
      <h1>Satchel</h1>
      <p>Your wallet, on your desktop.</p>
    </main>
  );
}
