// What the host and the remotes share as `react-router-dom` (federation.js): only the router API the portal uses,
// taken from react-router 7 (react-router-dom 7 re-exports it). A shared module ships whole, so sharing the package
// itself sent all of react-router (data routers, server rendering) to every page; this file lets webpack tree-shake it.
// federation.js fails the build when a source imports a name missing here: add it to this list.
export {
  BrowserRouter,
  Link,
  matchPath,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from 'react-router';
