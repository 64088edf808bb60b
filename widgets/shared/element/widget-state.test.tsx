import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useWidgetState, WidgetStateContext, type WidgetStateBag } from './widget-state.ts';

let setCount: (next: number | ((previous: number) => number)) => void = () => {};
function Counter() {
  const [count, set] = useWidgetState('probe.count', 5);
  setCount = set;
  return <output>{count}</output>;
}
const mount = (bag: WidgetStateBag) =>
  render(
    <WidgetStateContext.Provider value={bag}>
      <Counter />
    </WidgetStateContext.Provider>,
  );

describe('useWidgetState', () => {
  it('keeps the initial value in the bag, and takes the bag’s value on the next mount', () => {
    const bag: WidgetStateBag = new Map();
    const first = mount(bag);
    expect(bag.get('probe.count')).toBe(5);
    act(() => setCount(8));
    first.unmount();
    const second = mount(bag);
    expect(second.container.textContent).toBe('8');
  });

  it('writes the bag when the setter is called, before any render or effect', () => {
    const bag: WidgetStateBag = new Map();
    const view = mount(bag);
    act(() => {
      setCount(7);
      // An element detached in this same task keeps 7, and a functional update builds on it.
      expect(bag.get('probe.count')).toBe(7);
      setCount((previous) => previous + 1);
      expect(bag.get('probe.count')).toBe(8);
    });
    expect(view.container.textContent).toBe('8');
  });

  it('without a bag (outside an element) it is plain state', () => {
    const view = render(<Counter />);
    act(() => setCount((previous) => previous * 2));
    expect(view.container.textContent).toBe('10');
  });
});
