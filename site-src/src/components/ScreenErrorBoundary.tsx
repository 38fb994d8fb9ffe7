// A client screen that fails while rendering (or whose code cannot load) shows the error page's
// state instead of an empty body; if showing that fails too, the spec's last resort: 'An error
// occurred while showing the error page', the error's details and a way home.
import { Component, type ReactElement, type ReactNode } from 'react';
import { ErrorState } from './NotFoundState';

interface BoundaryProps {
  fallback(error: unknown): ReactNode;
  children?: ReactNode;
}

/** React catches render errors only in a class component with getDerivedStateFromError. */
class Boundary extends Component<BoundaryProps, { failed: boolean; error: unknown }> {
  override state = { failed: false, error: undefined as unknown };

  static getDerivedStateFromError(error: unknown): { failed: boolean; error: unknown } {
    return { failed: true, error };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

const detailsOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export function ErrorPageFailed({ prefix, error }: { prefix: string; error: unknown }): ReactElement {
  return (
    <div className="error-page" data-status="500">
      <h1 className="page-title">An error occurred while showing the error page</h1>
      <p className="error-page__message" role="alert">
        Unfortunately an error occurred and while showing the error page another error occurred
      </p>
      <pre className="error-page__details">{detailsOf(error)}</pre>
      <p>
        <a className="btn btn--primary" href={prefix || '/'}>
          Go back to home
        </a>
      </p>
    </div>
  );
}

/** `errorView` is the error page's state; a test may pass one that fails. */
export function ScreenErrorBoundary({
  prefix,
  children,
  errorView: ErrorView = ErrorState,
}: {
  prefix: string;
  children: ReactNode;
  errorView?: (props: { prefix: string; status: number }) => ReactElement;
}): ReactElement {
  return (
    <Boundary
      fallback={() => (
        <Boundary fallback={(error) => <ErrorPageFailed prefix={prefix} error={error} />}>
          <ErrorView prefix={prefix} status={500} />
        </Boundary>
      )}
    >
      {children}
    </Boundary>
  );
}
