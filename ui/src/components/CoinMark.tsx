// A coin's or token's round mark, coloured by its symbol.

const palette = ['#5b4cf5', '#12865a', '#d9480f', '#1c7ed6', '#ae3ec9', '#e67700'];

export function CoinMark({ symbol }: { symbol: string }) {
  const colour = palette[[...symbol].reduce((sum, c) => sum + c.charCodeAt(0), 0) % palette.length];
  return (
    <span className="coin" style={{ background: colour }} aria-hidden="true">
      {symbol.slice(0, 3)}
    </span>
  );
}
