import { Link } from "react-router";
import { StatusPage } from "./status-page.tsx";
import { Button } from "./ui/button.tsx";

export function NotFoundPage() {
  return (
    <StatusPage
      code="404"
      title="Oops! Page not found"
      actions={
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
      }
    >
      <p>The page you were looking for has wandered off the map.</p>
    </StatusPage>
  );
}
