// Who the tab is, as the server sees it (the API's viewer): read at start
// and at every sign-in or sign-out, so that the explorer offers the write
// controls to those who may write. It reads nothing of anyone else; the
// server's gates judge every request all the same.
import { gql } from "./api";

/** Viewer is the caller as the server sees it. */
export interface Viewer {
  id: string;
  name: string;
  role: "READER" | "EDITOR" | "ADMIN";
  /** the datasets it reads ("*": every one) */
  datasets: string[];
  cleared: boolean;
  anonymous: boolean;
  /** the datasets it may write ("*": every one); none for a reader */
  writableDatasets: string[];
}

/** readViewer asks who the tab is now: null when its credentials are refused. */
export function readViewer(): Promise<Viewer | null> {
  return gql<{ viewer: Viewer }>(`query Viewer { viewer { id name role datasets cleared anonymous writableDatasets } }`).then(
    (d) => d.viewer,
    () => null,
  );
}
