export function App() {
  return <h1>imagegate</h1>;
}
