/** The 404 view of docs/product.md §2, served with HTTP 404 for any path the site does not have. */
export const NOT_FOUND_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>404 Page Not Found</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8fafc; color: #0f172a;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 28rem; margin: 1rem; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; color: #b91c1c; }
  a { color: #1d4ed8; }
</style>
</head>
<body>
<main>
  <h1>404 Page Not Found</h1>
  <p>Did you forget to add the page to the router?</p>
  <p><a href="/">Go to the home page</a></p>
</main>
</body>
</html>
`;
